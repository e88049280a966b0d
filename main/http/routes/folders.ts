import type { FastifyInstance } from 'fastify';
import { requireCapability } from '../../accounts/permissions.js';
import { applyFolderOperation, importFolder, type FoldersContext } from '../../folders/index.js';
import { ok } from '../envelope.js';
import { FolderOperationBody, FolderPathParams } from '../input/folders-input.js';
import { requestInput } from '../input/request-input.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

/** Folder import and folder operation (spec "Folder"; contract section 3 for 423). */
export function folderRoutes(app: FastifyInstance, folders: FoldersContext): void {
  const write = { config: { access: 'write' as const } };

  app.put('/api/v0/folder/:cid', write, async (request) => {
    const { cid } = requestInput(FolderPathParams, request.params);
    await importFolder(folders, requireAuth(request.auth).account.id, cid);
    return ok();
  });

  app.post('/api/v0/folder/operation', write, async (request) => {
    const auth = requireAuth(request.auth);
    const operation = requestInput(FolderOperationBody, await readJsonObject(request.raw));
    if (operation.pinNew) requireCapability(auth.permissions, 'pin');
    if (operation.unpinOld) requireCapability(auth.permissions, 'unpin');
    const result = await applyFolderOperation(folders, auth.account.id, operation);
    return ok({ cid: result.cid.toString() });
  });
}
