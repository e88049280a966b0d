import { Link } from 'wouter';
import { Icon, type IconName } from '../../components/icons.js';
import { Section } from '../../components/section.js';

const STEPS: ReadonlyArray<{ href: string; icon: IconName; title: string; text: string; action: string }> = [
  {
    href: '/sync',
    icon: 'folder',
    title: 'Sync a folder',
    text: 'Drop a folder on the Sync page: it is pinned and published under an IPNS name, and stays current as you change it.',
    action: 'Go to Sync',
  },
  {
    href: '/files',
    icon: 'upload',
    title: 'Upload a file',
    text: 'Drop files or a folder on the Files page to get their CID, and pin what you want to keep.',
    action: 'Go to Files',
  },
  {
    href: '/keys',
    icon: 'keys',
    title: 'Create an access key',
    text: 'Give scripts and apps a key of their own, with only the permissions they need.',
    action: 'Go to Keys',
  },
];

/** What a new, empty account sees first: the three things to do next. */
export function FirstSteps() {
  return (
    <Section title="Get started" description="Nothing is stored in this account yet. Three ways to begin:">
      <ol className="first-steps">
        {STEPS.map((step) => (
          <li key={step.href} className="first-step">
            <span className="first-step-icon">
              <Icon name={step.icon} size={20} />
            </span>
            <h3>{step.title}</h3>
            <p className="muted">{step.text}</p>
            <Link href={step.href} className="first-step-link">
              {step.action}
              <Icon name="chevronRight" size={14} />
            </Link>
          </li>
        ))}
      </ol>
    </Section>
  );
}
