import { useId, type ReactNode } from 'react';
import './surfaces.css';

export interface SectionProps {
  title: string;
  description?: ReactNode;
  /** Buttons at the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A card with an h2: how pages group their content (one landmark region each, named by its title). */
export function Section({ title, description, actions, children, className }: SectionProps) {
  const titleId = useId();
  return (
    <section className={`card section ${className ?? ''}`} aria-labelledby={titleId}>
      <div className="section-head">
        <div>
          <h2 id={titleId}>{title}</h2>
          {description ? <p className="section-description">{description}</p> : null}
        </div>
        {actions ? <div className="row">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** Label/value pairs (service facts, a user's details). */
export function Facts({ items }: { items: ReadonlyArray<{ label: string; value: ReactNode; testId?: string }> }) {
  return (
    <dl className="facts">
      {items.map((item) => (
        <div key={item.label}>
          <dt>{item.label}</dt>
          <dd data-testid={item.testId}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
