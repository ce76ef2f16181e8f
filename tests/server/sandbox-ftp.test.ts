// The sandbox FTP server stands in for a company's FTP server in tests and in `npm start`: these
// tests drive it with basic-ftp, the client the FTP intake uses, over real sockets on loopback.
// Besides the ordinary round trip they show the doors stay shut: a wrong password, paths that try
// to leave the home, commands before login, active mode, over-long lines, and a client that
// vanishes in the middle of a download (the server goes on serving the next one).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Client, enterPassiveModeIPv4 } from 'basic-ftp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxFtp, type SandboxFtp } from '../../src/sandbox/ftp/server.ts';

const USER = 'acme';
const PASSWORD = 'acme-secret';
let root: string;
let home: string;
let ftp: SandboxFtp;
const clients: Client[] = [];

beforeAll(async () => {
  // The home is one level down, so a file next to it shows whether ".." gets out.
  root = await mkdtemp(join(tmpdir(), 'colibri-ftp-'));
  home = join(root, 'home');
  await mkdir(home);
  await writeFile(join(root, 'secret.txt'), 'outside the home');
  ftp = await startSandboxFtp({ accounts: [{ user: USER, password: PASSWORD, home }] });
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await ftp.close();
  await rm(root, { recursive: true, force: true });
});

async function login(password = PASSWORD): Promise<Client> {
  const client = new Client();
  clients.push(client);
  await client.access({ host: ftp.host, port: ftp.port, user: USER, password });
  return client;
}

/** A Writable that keeps what it receives. */
function sink(onChunk?: () => void): { stream: Writable; bytes(): Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      onChunk?.();
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

async function download(client: Client, remotePath: string): Promise<Buffer> {
  const target = sink();
  await client.downloadTo(target.stream, remotePath);
  return target.bytes();
}

describe('sandbox FTP server', () => {
  it('listens on loopback only', () => {
    expect(ftp.host).toBe('127.0.0.1');
    expect(ftp.port).toBeGreaterThan(0);
  });

  it('refuses a wrong password with 530', async () => {
    await expect(login('wrong')).rejects.toMatchObject({ code: 530 });
  });

  it('uploads, lists, downloads, moves into a folder and removes a file', async () => {
    const client = await login();
    const content = Buffer.from('phone;text\n3001234567;Hola ñandú\n', 'utf8');
    await client.uploadFrom(Readable.from([content]), 'contacts.csv');
    expect(await readFile(join(home, 'contacts.csv'))).toEqual(content);

    const [entry] = (await client.list()).filter((f) => f.name === 'contacts.csv');
    expect(entry).toMatchObject({ name: 'contacts.csv', size: content.length, isFile: true });
    expect(entry.modifiedAt).toBeInstanceOf(Date);
    expect(Math.abs(entry.modifiedAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await client.size('contacts.csv')).toBe(content.length);
    expect(await client.lastMod('contacts.csv')).toBeInstanceOf(Date);

    expect(await download(client, 'contacts.csv')).toEqual(content);

    await client.ensureDir('processed');
    expect(await client.pwd()).toBe('/processed');
    await client.rename('/contacts.csv', 'contacts.csv');
    expect((await client.list()).map((f) => f.name)).toEqual(['contacts.csv']);
    expect((await client.list('/')).find((f) => f.name === 'processed')?.isDirectory).toBe(true);
    expect(await readFile(join(home, 'processed', 'contacts.csv'))).toEqual(content);

    await client.remove('contacts.csv');
    expect(await client.list()).toEqual([]);
    await client.cdup();
    await client.removeEmptyDir('processed');
    expect((await client.list()).map((f) => f.name)).not.toContain('processed');
  });

  it('lists with LIST over PASV for a client that does not use MLSD or EPSV', async () => {
    await writeFile(join(home, 'plain.txt'), 'plain');
    const client = await login();
    client.prepareTransfer = enterPassiveModeIPv4;
    client.availableListCommands = ['LIST'];
    const [entry] = (await client.list()).filter((f) => f.name === 'plain.txt');
    expect(entry).toMatchObject({ name: 'plain.txt', size: 5, isFile: true });
    // basic-ftp keeps an ls date as text only (modifiedAt is for MLSD): "Jan  2 15:04".
    expect(entry.rawModifiedAt).toMatch(/^[A-Z][a-z]{2} +\d{1,2} +\d{2}:\d{2}$/);
    expect((await download(client, 'plain.txt')).toString()).toBe('plain');
    await rm(join(home, 'plain.txt'));
  });

  it('never reads outside the home', async () => {
    const client = await login();
    await client.cd('../..');
    expect(await client.pwd()).toBe('/');
    for (const path of ['../secret.txt', '../../secret.txt', '/../secret.txt', '../../etc/passwd']) {
      await expect(download(client, path), path).rejects.toMatchObject({ code: 550 });
    }
    await expect(client.cd('../../..')).resolves.toMatchObject({ code: 250 });
    expect(await client.pwd()).toBe('/');
    await expect(client.uploadFrom(Readable.from([Buffer.from('x')]), '../escaped.txt')).resolves.toBeDefined();
    // The upload landed inside the home ("/escaped.txt"), not next to it.
    expect(await readFile(join(home, 'escaped.txt'), 'utf8')).toBe('x');
    await expect(readFile(join(root, 'escaped.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await client.remove('/escaped.txt');
  });

  it('survives a client that disconnects in the middle of a 5 MB download', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 'colibri ');
    await writeFile(join(home, 'big.bin'), big);
    const client = await login();
    let received = 0;
    const target = sink(() => {
      received++;
      if (received === 1) client.close();
    });
    await expect(client.downloadTo(target.stream, 'big.bin')).rejects.toThrow();
    expect(target.bytes().length).toBeLessThan(big.length);

    const next = await login();
    expect((await next.list()).find((f) => f.name === 'big.bin')?.size).toBe(big.length);
    expect((await download(next, 'big.bin')).equals(big)).toBe(true);
    await next.remove('big.bin');
  });

  it('close() ends the connections still open', async () => {
    const other = await startSandboxFtp({ accounts: [{ user: USER, password: PASSWORD, home }] });
    const client = new Client();
    clients.push(client);
    await client.access({ host: other.host, port: other.port, user: USER, password: PASSWORD });
    await other.close();
    await expect(client.pwd()).rejects.toThrow();
    const late = new Client();
    clients.push(late);
    await expect(late.access({ host: other.host, port: other.port })).rejects.toThrow();
  });

  it('answers 530 before login, 502 to active mode and unknown commands, and cuts an over-long line', async () => {
    const raw = await rawSession();
    expect(await raw.send('PWD')).toMatch(/^530 /);
    expect(await raw.send('RETR ../secret.txt')).toMatch(/^530 /);
    expect(await raw.send('USER ' + USER)).toMatch(/^331 /);
    expect(await raw.send('PASS ' + PASSWORD)).toMatch(/^230 /);
    expect(await raw.send('PORT 127,0,0,1,4,1')).toMatch(/^502 /);
    expect(await raw.send('EPRT |1|127.0.0.1|1025|')).toMatch(/^502 /);
    expect(await raw.send('SITE CHMOD 777 x')).toMatch(/^502 /);
    expect(await raw.send('RETR nothing.txt')).toMatch(/^425 /);
    expect(await raw.send('PASV')).toMatch(/^227 Entering Passive Mode \(127,0,0,1,\d+,\d+\)/);
    expect(await raw.send('RETR nothing.txt')).toMatch(/^550 /);
    expect(await raw.send('MKD /')).toMatch(/^550 /);
    expect(await raw.send('SIZE a\u0000b')).toMatch(/^550 /);
    expect(await raw.send(`NOOP ${'x'.repeat(3000)}`)).toMatch(/^500 /);
    await raw.closed;
  });
});

/** A control connection spoken by hand, for what basic-ftp never sends. */
async function rawSession(): Promise<{ send(line: string): Promise<string>; closed: Promise<void> }> {
  const socket: Socket = connect(ftp.port, ftp.host);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  const ready: string[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    buffered += text;
    let newline: number;
    while ((newline = buffered.indexOf('\r\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 2);
      const next = waiting.shift();
      if (next) next(line);
      else ready.push(line);
    }
  });
  const nextLine = () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise<string>((resolve) => waiting.push(resolve)));
  expect(await nextLine()).toMatch(/^220 /);
  return {
    send: (line) => {
      socket.write(`${line}\r\n`);
      return nextLine();
    },
    closed,
  };
}
