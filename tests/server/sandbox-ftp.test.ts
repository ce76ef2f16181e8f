// The sandbox FTP server stands in for a company's FTP server in tests and in `npm start`: these
// tests drive it with basic-ftp, the client the FTP intake uses, over real sockets on loopback.
// Besides the ordinary round trip they show the doors stay shut: a wrong password, paths that try
// to leave the home, commands before login, active mode, over-long lines, and a client that
// vanishes in the middle of a download (the server goes on serving the next one). With a
// certificate (tests/fixtures/ftp-tls, self-signed for localhost and 127.0.0.1) it speaks explicit
// TLS as basic-ftp asks for it: control and data connections encrypted, an untrusted certificate refused.
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { connect as tlsConnect, TLSSocket, type ConnectionOptions } from 'node:tls';
import { Client, enterPassiveModeIPv4 } from 'basic-ftp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LINE_BREAK_STAND_IN, startSandboxFtp, type SandboxFtp } from '../../src/sandbox/ftp/server.ts';

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

const TLS_FIXTURES = join(import.meta.dirname, '../fixtures/ftp-tls');

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

  it('never follows a symbolic link out of the home: not to read, list, write or enter', async () => {
    await mkdir(join(root, 'outside'), { recursive: true });
    await writeFile(join(root, 'outside', 'other.csv'), 'another company');
    await symlink(join(root, 'secret.txt'), join(home, 'secret-link.txt'));
    await symlink(join(root, 'outside'), join(home, 'outside-link'));
    await symlink(join(root, 'not-yet.txt'), join(home, 'dangling-link.txt'));
    await writeFile(join(home, 'own.txt'), 'mine');
    await symlink(join(home, 'own.txt'), join(home, 'own-link.txt'));
    try {
      const client = await login();
      for (const path of ['secret-link.txt', '/secret-link.txt', 'outside-link/other.csv']) {
        await expect(download(client, path), path).rejects.toMatchObject({ code: 550 });
      }
      await expect(client.cd('outside-link')).rejects.toMatchObject({ code: 550 });
      await expect(client.list('outside-link')).rejects.toMatchObject({ code: 550 });
      await expect(client.uploadFrom(Readable.from([Buffer.from('x')]), 'outside-link/planted.txt')).rejects.toMatchObject({ code: 550 });
      await expect(client.uploadFrom(Readable.from([Buffer.from('x')]), 'dangling-link.txt')).rejects.toMatchObject({ code: 550 });
      await expect(readFile(join(root, 'outside', 'planted.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(readFile(join(root, 'not-yet.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      // The listing leaves out what leads outside; a link that stays inside is an ordinary file.
      const names = (await client.list()).map((f) => f.name);
      expect(names).toEqual(expect.arrayContaining(['own.txt', 'own-link.txt']));
      expect(names).not.toEqual(expect.arrayContaining(['secret-link.txt']));
      expect(names.filter((n) => ['secret-link.txt', 'outside-link', 'dangling-link.txt'].includes(n))).toEqual([]);
      expect((await download(client, 'own-link.txt')).toString()).toBe('mine');
    } finally {
      for (const name of ['secret-link.txt', 'outside-link', 'dangling-link.txt', 'own.txt', 'own-link.txt']) await rm(join(home, name), { force: true });
    }
  });

  it('lists a name with a line break with a stand-in for it, serves nothing by it, and refuses a CR in a command\'s path', async () => {
    await writeFile(join(home, '12_a\nb.csv'), 'telefono\n3001234567\n');
    try {
      const client = await login();
      const names = (await client.list()).map((f) => f.name);
      expect(names).toContain(`12_a${LINE_BREAK_STAND_IN}b.csv`);
      await expect(download(client, `12_a${LINE_BREAK_STAND_IN}b.csv`)).rejects.toMatchObject({ code: 550 });
      const raw = await rawSession();
      expect(await raw.send('USER ' + USER)).toMatch(/^331 /);
      expect(await raw.send('PASS ' + PASSWORD)).toMatch(/^230 /);
      expect(await raw.send('SIZE 12_a\rb.csv')).toMatch(/^553 /);
      expect(await raw.send('MKD x\ry')).toMatch(/^553 /);
      expect(await raw.send('QUIT')).toMatch(/^221 /);
    } finally {
      await rm(join(home, '12_a\nb.csv'), { force: true });
    }
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

  it('without a certificate answers AUTH TLS with 502 and offers no TLS in FEAT', async () => {
    const raw = await rawSession();
    expect(await raw.send('AUTH TLS')).toMatch(/^502 /);
    expect(await raw.send('PBSZ 0')).toMatch(/^502 /);
    expect(await raw.send('FEAT')).toMatch(/^211-/);
    const features = await raw.until(/^211 /);
    expect(features).toContain(' EPSV');
    expect(features.join('\n')).not.toMatch(/AUTH|PBSZ|PROT/);
    // basic-ftp's secure: true needs AUTH TLS: the 5xx is what tells the intake to go on in plain FTP.
    const client = new Client();
    clients.push(client);
    await expect(client.access({ host: ftp.host, port: ftp.port, user: USER, password: PASSWORD, secure: true })).rejects.toMatchObject({ code: 502 });
  });
});

describe('sandbox FTP server with explicit TLS', () => {
  let secureFtp: SandboxFtp;
  let tlsHome: string;
  let cert: string;

  beforeAll(async () => {
    tlsHome = join(root, 'tls-home');
    cert = await readFile(join(TLS_FIXTURES, 'cert.pem'), 'utf8');
    const key = await readFile(join(TLS_FIXTURES, 'key.pem'), 'utf8');
    secureFtp = await startSandboxFtp({ accounts: [{ user: USER, password: PASSWORD, home: tlsHome }], tls: { key, cert } });
  });
  afterAll(() => secureFtp.close());

  async function secureLogin(secureOptions: { ca?: string; servername?: string }): Promise<Client> {
    const client = new Client();
    clients.push(client);
    await client.access({ host: secureFtp.host, port: secureFtp.port, user: USER, password: PASSWORD, secure: true, secureOptions });
    return client;
  }

  it('logs in, uploads, lists and downloads over TLS, the data connections encrypted too', async () => {
    const client = await secureLogin({ ca: cert, servername: 'localhost' });
    const control = client.ftp.socket;
    expect(control).toBeInstanceOf(TLSSocket);
    expect((control as TLSSocket).encrypted).toBe(true);
    expect((control as TLSSocket).authorized).toBe(true);
    expect((control as TLSSocket).getProtocol()).toMatch(/^TLSv1\.[23]$/);

    // Every data connection basic-ftp opens (PROT P) is a TLS socket that resumes the control
    // connection's TLS session (basic-ftp offers it; servers may insist): seen as it is handed over.
    const { set } = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(client.ftp), 'dataSocket')!;
    const resumed: Array<boolean | null> = [];
    const dataSocket = vi.spyOn(client.ftp, 'dataSocket', 'set').mockImplementation((socket) => {
      if (socket instanceof TLSSocket) socket.once('secureConnect', () => resumed.push(socket.isSessionReused()));
      set!.call(client.ftp, socket);
    });

    const content = Buffer.from('phone;text\n3001234567;Hola ñandú\n', 'utf8');
    await client.uploadFrom(Readable.from([content]), 'contacts.csv');
    expect(await readFile(join(tlsHome, 'contacts.csv'))).toEqual(content);
    const [entry] = (await client.list()).filter((f) => f.name === 'contacts.csv');
    expect(entry).toMatchObject({ name: 'contacts.csv', size: content.length, isFile: true });
    expect(await download(client, 'contacts.csv')).toEqual(content);
    await client.remove('contacts.csv');
    expect(await client.list()).toEqual([]);

    const opened = dataSocket.mock.calls.map(([socket]) => socket).filter((socket) => socket !== undefined);
    expect(opened).toHaveLength(4);
    for (const socket of opened) expect(socket).toBeInstanceOf(TLSSocket);
    expect(resumed).toEqual([true, true, true, true]);
  });

  it('still serves a client in plain FTP', async () => {
    const client = await login();
    expect(client.ftp.socket).not.toBeInstanceOf(TLSSocket);
    expect(await client.list()).toEqual([]);
  });

  it('a client that does not trust the self-signed certificate is refused', async () => {
    await expect(secureLogin({ servername: 'localhost' })).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    // Trusted, but for another name: refused as well.
    await expect(secureLogin({ ca: cert, servername: 'ftp.example.com' })).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    // The server is unharmed.
    const client = await secureLogin({ ca: cert, servername: 'localhost' });
    expect(await client.pwd()).toBe('/');
  });

  it('offers AUTH TLS, PBSZ and PROT, keeps RFC 4217 order and trusts nothing sent in clear around AUTH', async () => {
    const raw = await rawSession(secureFtp);
    expect(await raw.send('FEAT')).toMatch(/^211-/);
    const features = await raw.until(/^211 /);
    expect(features).toEqual(expect.arrayContaining([' AUTH TLS', ' PBSZ', ' PROT']));
    expect(await raw.send('PBSZ 0')).toMatch(/^503 /);
    expect(await raw.send('PROT P')).toMatch(/^503 /);
    expect(await raw.send('AUTH KERBEROS_V4')).toMatch(/^504 /);
    expect(await raw.send('USER ' + USER)).toMatch(/^331 /);
    expect(await raw.send('PASS ' + PASSWORD)).toMatch(/^230 /);
    // A USER slipped in behind AUTH, in clear, is dropped, and the login in clear is forgotten.
    expect(await raw.send(`AUTH TLS\r\nUSER ${USER}`)).toMatch(/^234 /);
    const secure = await raw.startTls({ ca: cert, servername: 'localhost' });
    expect(secure.authorized).toBe(true);
    expect(await raw.send('PASS ' + PASSWORD)).toMatch(/^503 /);
    expect(await raw.send('PWD')).toMatch(/^530 /);
    expect(await raw.send('AUTH TLS')).toMatch(/^503 /);
    expect(await raw.send('PROT P')).toMatch(/^503 /);
    expect(await raw.send('PBSZ 0')).toMatch(/^200 PBSZ=0/);
    expect(await raw.send('PROT S')).toMatch(/^536 /);
    expect(await raw.send('PROT C')).toMatch(/^200 /);
    expect(await raw.send('PROT P')).toMatch(/^200 /);
    expect(await raw.send('USER ' + USER)).toMatch(/^331 /);
    expect(await raw.send('PASS ' + PASSWORD)).toMatch(/^230 /);
    expect(await raw.send(`NOOP ${'x'.repeat(3000)}`)).toMatch(/^500 /);
    await raw.closed;
  });
});

interface RawSession {
  /** Sends a line (several, with CRLFs inside, go in one write) and answers the next reply line. */
  send(line: string): Promise<string>;
  /** The lines up to and including the first that matches `last` (the end of a multi-line reply). */
  until(last: RegExp): Promise<string[]>;
  /** Goes on over TLS (after a 234), as tls.connect on the same connection. */
  startTls(options: ConnectionOptions): Promise<TLSSocket>;
  closed: Promise<void>;
}

/** A control connection spoken by hand, for what basic-ftp never sends. */
async function rawSession(server: SandboxFtp = ftp): Promise<RawSession> {
  let socket: Socket = connect(server.port, server.host);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  const ready: string[] = [];
  const onText = (text: string) => {
    buffered += text;
    let newline: number;
    while ((newline = buffered.indexOf('\r\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 2);
      const next = waiting.shift();
      if (next) next(line);
      else ready.push(line);
    }
  };
  socket.setEncoding('utf8');
  socket.on('data', onText);
  const nextLine = () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise<string>((resolve) => waiting.push(resolve)));
  expect(await nextLine()).toMatch(/^220 /);
  return {
    send: (line) => {
      socket.write(`${line}\r\n`);
      return nextLine();
    },
    until: async (last) => {
      const read: string[] = [];
      do read.push(await nextLine());
      while (!last.test(read.at(-1)!));
      return read;
    },
    startTls: async (options) => {
      socket.off('data', onText);
      const secure = tlsConnect({ ...options, socket });
      await once(secure, 'secureConnect');
      secure.on('error', () => {});
      secure.setEncoding('utf8');
      secure.on('data', onText);
      socket = secure;
      return secure;
    },
    closed,
  };
}
