import { useState } from 'react';
import { Button } from '../../components/button.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';

/** Desktop app only (bridge.openFolder): shows the folder in the system file manager, or says why it cannot. */
export function OpenInFileManager({ path }: { path: string }) {
  const bridge = desktopBridge();
  const [problem, setProblem] = useState<string | null>(null);
  const openFolder = bridge?.openFolder?.bind(bridge);
  if (!openFolder) return null;
  const open = async () => {
    setProblem(null);
    try {
      if (!(await openFolder(path))) setProblem('The folder is not there any more.');
    } catch (error) {
      setProblem(`The desktop app could not open it: ${describeError(error)}`);
    }
  };
  return (
    <>
      <Button size="sm" variant="ghost" icon="folder" onClick={() => void open()}>
        Show in file manager
      </Button>
      {problem ? (
        <span className="field-error" role="alert">
          {problem}
        </span>
      ) : null}
    </>
  );
}
