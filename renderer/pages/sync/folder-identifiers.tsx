import type { SyncFolderView } from '../../../shared/api-types.js';
import { Cid } from '../../components/cid.js';
import { folderName, ipnsNote } from '../../lib/sync-folders.js';
import { GatewayOpen } from './gateway-open.js';

interface IdentifierProps {
  row: SyncFolderView;
  publicGateway: boolean;
}

/** The folder's current root: Copy, and Open in the gateway; a note while the first scan runs. */
export function FolderRoot({ row, publicGateway }: IdentifierProps) {
  const name = folderName(row.path);
  if (row.root === '') return <span className="muted">After the first scan</span>;
  return (
    <span className="identifier">
      <Cid value={row.root} copy what={`root CID of ${name}`} />
      <GatewayOpen path={`/ipfs/${row.root}/`} label={`Open the root of ${name} in the gateway`} publicGateway={publicGateway} />
    </span>
  );
}

/** The IPNS name that follows the folder's latest root: Copy, and Open; or why there is none. */
export function FolderIpnsName({ row, publicGateway }: IdentifierProps) {
  const name = folderName(row.path);
  const note = ipnsNote(row);
  if (note) return <span className="muted">{note}</span>;
  return (
    <span className="identifier">
      <Cid value={row.ipns_name} copy what={`IPNS name of ${name}`} />
      <GatewayOpen path={`/ipns/${row.ipns_name}/`} label={`Open the IPNS name of ${name} in the gateway`} publicGateway={publicGateway} />
    </span>
  );
}
