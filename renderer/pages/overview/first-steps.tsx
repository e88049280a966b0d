import { Link } from 'wouter';
import { Icon, type IconName } from '../../components/icons.js';
import { Section } from '../../components/section.js';
import { desktopBridge } from '../../desktop-bridge.js';

interface Step {
  href: string;
  icon: IconName;
  title: string;
  text: string;
  action: string;
}

const SYNCED = 'it is pinned and published under an IPNS name, and stays current as you change it.';

/**
 * Syncing starts differently where the page runs: the desktop app can take a dropped or chosen folder, a
 * browser cannot learn where a folder is on this computer, so there the folder's path is typed in.
 */
function syncStep(desktop: boolean): Step {
  return {
    href: '/sync',
    icon: 'folder',
    title: 'Sync a folder',
    text: desktop
      ? `Drop a folder on the Sync page or choose one there: ${SYNCED}`
      : `Type a folder's path on the Sync page (or run pinfold sync add with it): ${SYNCED}`,
    action: 'Go to Sync',
  };
}

const OTHER_STEPS: readonly Step[] = [
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
  const steps = [syncStep(desktopBridge() !== null), ...OTHER_STEPS];
  return (
    <Section title="Get started" description="Nothing is stored in this account yet. Three ways to begin:">
      <ol className="first-steps">
        {steps.map((step) => (
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
