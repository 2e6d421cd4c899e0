/**
 * Uploaded files: checked by their bytes, stored under server-made names, read only through the
 * API by those allowed (docs/architecture.md#files-and-mail).
 */
export { uploadRoutes, type MatchFileReaders } from './routes.ts';
export { receiveUpload, storeUpload } from './service.ts';
export { createLocalFileStore, type FileStore } from './store.ts';
