import './option-text.css';

/**
 * A sentence that names command-line options (`--public-gateway`): each option is shown as code and kept
 * on one line, since a browser would otherwise break it after a hyphen ("--" / "public-gateway").
 */
export function OptionText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(--[a-z][a-z0-9-]*)/).map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="option-name">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
