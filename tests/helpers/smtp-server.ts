import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface DeliveredMail {
  messageId: string;
  to: string[];
  /** The decoded text of the mail: headers, then the body with quoted-printable undone. */
  text: string;
  at: number;
}

export interface SmtpSink {
  port: number;
  url: string;
  deliveries: DeliveredMail[];
  close(): Promise<void>;
}

/** Undoes quoted-printable, the transfer encoding nodemailer gives text with long lines. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that accepts every mail and keeps
 * it: what the application's mail worker delivers is read back as a mail client would.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const deliveries: DeliveredMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        deliveries.push({
          messageId: /^message-id:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          text: decodeQuotedPrintable(raw),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  // A client that dies mid-conversation (the crash test kills the server holding the pooled
  // connection) resets its socket: that is the client's business. Anything else fails close().
  const failures: Error[] = [];
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') failures.push(error);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    deliveries,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (failures.length > 0) throw failures[0];
    },
  };
}
