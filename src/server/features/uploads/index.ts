export { uploadRoutes, type MatchFileReaders } from './routes.ts';
export { receiveUpload, storeUpload } from './service.ts';
export { createLocalFileStore, type FileStore } from './store.ts';
