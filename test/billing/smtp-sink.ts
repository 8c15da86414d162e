/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it receives, so tests
 * check the usage warning emails exactly as a mail server would get them.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

function header(raw: string, name: string): string {
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}: (.*)$`, 'mi').exec(unfolded);
  return match?.[1]?.trim() ?? '';
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), subject: header(raw, 'Subject'), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
