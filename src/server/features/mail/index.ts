/**
 * The mail outbox and the worker that delivers it (docs/architecture.md#files-and-mail).
 */
export { enqueueMail, type Mail } from './outbox.ts';
export { smtpTransport, startMailWorker, type MailTransport } from './worker.ts';
