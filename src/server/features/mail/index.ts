export { enqueueMail, type Mail } from './outbox.ts';
export { smtpTransport, startMailWorker, type MailTransport } from './worker.ts';
