// The sandbox FTP server: a real FTP server on loopback that stands in for a company's FTP server
// in the embedded mode (`npm start`) and in tests, so the FTP intake (basic-ftp) runs over the real
// protocol instead of a mock. It speaks what that client uses and refuses the rest:
//   - USER/PASS per account, each account shut in its own home folder, which it sees as "/";
//   - passive data connections only (EPSV, PASV), on 127.0.0.1 like the control port: nothing off
//     the machine reaches a sandbox door, and the server never connects out (PORT/EPRT → 502);
//   - MLSD listings (basic-ftp prefers them when FEAT advertises MLST), LIST and NLST; RETR, STOR,
//     RNFR/RNTO, MKD, DELE, RMD, SIZE, MDTM;
//   - limits a server on the internet would need too: no path leaves the home (by its text or a
//     symbolic link), a name with a line break is listed with a stand-in and taken by no command, long lines and idle
//     clients are cut, a filesystem error is a 550, a client gone mid-transfer ends its session only;
//   - explicit TLS (RFC 4217: AUTH TLS, PBSZ, PROT) when started with a key and certificate, as
//     basic-ftp tries first; without them AUTH is a 502 and the client goes on in plain FTP.
import type { Stats } from 'node:fs';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';

export interface SandboxFtpAccount {
  user: string;
  password: string;
  /** absolute folder this user sees as "/" */
  home: string;
}

/** The server's TLS identity (PEM), for explicit TLS. */
export interface SandboxFtpTls {
  key: string | Buffer;
  cert: string | Buffer;
}

export interface SandboxFtp {
  port: number;
  host: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** RFC 959 sets no limit; 2048 bytes is far above any path basic-ftp sends and bounds what a client can make us buffer. */
const MAX_LINE_BYTES = 2048;
/** A silent control connection, or a data connection nobody opens or feeds, is cut after this. */
const IDLE_MS = 60_000;
/** Commands served before login: enough to greet, negotiate, secure (RFC 4217 §4) and log in (RFC 959 §4.1.1, RFC 2389). */
const BEFORE_LOGIN = new Set(['QUIT', 'USER', 'PASS', 'FEAT', 'SYST', 'OPTS', 'NOOP', 'AUTH', 'PBSZ', 'PROT']);
/** FEAT lines (RFC 2389); "MLST" makes basic-ftp list with MLSD, the starred facts are the ones sent. */
const FEATURES = ['MLST type*;size*;modify*;', 'SIZE', 'MDTM', 'UTF8', 'EPSV', 'PASV'];
/** FEAT lines added when the server has a certificate (RFC 4217 §6). */
const TLS_FEATURES = ['AUTH TLS', 'PBSZ', 'PROT'];
/** Sessions reading commands faster than they are answered stop being read past this many waiting lines. */
const MAX_WAITING_LINES = 32;

/** Starts the sandbox FTP server on 127.0.0.1; resolves once it listens. With `tls` it offers explicit TLS. */
export async function startSandboxFtp(options: { accounts: SandboxFtpAccount[]; port?: number; tls?: SandboxFtpTls }): Promise<SandboxFtp> {
  const accounts = new Map(options.accounts.map((a) => [a.user, { ...a, home: path.resolve(a.home) }]));
  // One context for every connection: a data connection resumes the control connection's TLS
  // session (basic-ftp offers it, as RFC 4217 advises), and session tickets are sealed with its keys.
  const secureContext = options.tls ? createSecureContext({ key: options.tls.key, cert: options.tls.cert }) : null;
  // A fresh data folder (the demo's first start) has no homes yet: an account starts with an empty one.
  for (const { home } of accounts.values()) await mkdir(home, { recursive: true });
  const sessions = new Set<Session>();
  const listener = createServer((socket) => {
    const session = openSession(socket, accounts, secureContext);
    sessions.add(session);
    socket.once('close', () => sessions.delete(session));
  });
  await listen(listener, options.port ?? 0);
  // After listening, an 'error' is a failed accept (e.g. out of file descriptors): that client is
  // lost, the server goes on.
  listener.on('error', () => {});
  const { port } = listener.address() as AddressInfo;
  return {
    port,
    host: HOST,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const session of sessions) session.end();
      }),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

interface Session {
  end(): void;
}

/** A path as the client sees it (inside its home) and where it is on disk. */
interface Place {
  virtual: string;
  real: string;
}

/** What a transfer command sends or receives once its data connection is open. */
interface DataWork {
  opening: string;
  run(data: Socket): Promise<void>;
}

type Handler = (arg: string) => void | Promise<void>;

/** Serves one control connection: commands are answered one at a time, in order. */
function openSession(socket: Socket, accounts: ReadonlyMap<string, SandboxFtpAccount>, secureContext: SecureContext | null): Session {
  /** The control connection; after AUTH TLS, the TLS socket over it. */
  let control = socket;
  let encrypted = false;
  /** PBSZ received (RFC 4217: it comes before PROT). */
  let bufferSizeSet = false;
  /** PROT P: the context data connections are wrapped with; PROT C (the default): null. */
  let dataProtection: SecureContext | null = null;
  let account: SandboxFtpAccount | null = null;
  let userName: string | null = null;
  let cwd = '/';
  let renameFrom: Place | null = null;
  let door: PassiveDoor | null = null;
  /** The door of the transfer under way: closing the control connection aborts it (RFC 959 §3.3). */
  let transferring: PassiveDoor | null = null;
  let closing = false;
  let pending: Buffer = Buffer.alloc(0);
  const lines: string[] = [];
  let running = false;

  control.setNoDelay(true);
  watch(control);
  reply(220, 'Sandbox FTP ready');

  /** Reads commands from `from` (the plain socket, later the TLS one) under the idle limit. */
  function watch(from: Socket) {
    // A client that vanishes (reset, broken pipe, failed handshake) is a closed session, never an uncaught error.
    from.on('error', () => from.destroy());
    from.once('close', onClose);
    from.setTimeout(IDLE_MS);
    from.on('timeout', onTimeout);
    from.on('data', onData);
  }

  function onClose() {
    closing = true;
    door?.close();
    door = null;
    transferring?.close();
  }

  // First silence: say why and hang up; if the client does not even read that, drop it.
  function onTimeout() {
    if (closing) control.destroy();
    else goodbye(421, 'Idle too long, closing control connection');
  }

  /**
   * AUTH TLS (RFC 4217 §4): 234 in clear, then the same connection speaks TLS. What the client sent
   * after AUTH before the handshake is dropped unread (it could be injected by someone on the path),
   * and the session starts over: USER/PASS again (RFC 2228 §3), PBSZ/PROT again, no open door.
   */
  function startTls(context: SecureContext) {
    const plain = control;
    plain.off('data', onData);
    plain.off('timeout', onTimeout);
    plain.setTimeout(0);
    // Bytes arriving from now on (the ClientHello) wait in the socket for the TLS layer to read.
    plain.pause();
    lines.length = 0;
    pending = Buffer.alloc(0);
    reply(234, 'Proceed with TLS negotiation');
    // The reply still being written is sent before the handshake (Node waits for the old owner's writes).
    const secure = new TLSSocket(plain, { isServer: true, secureContext: context });
    control = secure;
    encrypted = true;
    account = null;
    userName = null;
    cwd = '/';
    bufferSizeSet = false;
    dataProtection = null;
    door?.close();
    door = null;
    watch(secure);
  }

  function reply(code: number, text: string) {
    if (!closing && control.writable) control.write(`${code} ${oneLine(text)}\r\n`);
  }

  /** Answers an error and returns null, for the steps that would have returned what to work on. */
  function refuse(code: number, text: string): null {
    reply(code, text);
    return null;
  }

  function goodbye(code: number, text: string) {
    if (closing) return;
    closing = true;
    if (control.writable) control.end(`${code} ${oneLine(text)}\r\n`, () => control.destroy());
    else control.destroy();
  }

  function onData(chunk: Buffer) {
    if (closing) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let newline: number;
    while ((newline = pending.indexOf(0x0a)) !== -1) {
      const line = pending.subarray(0, newline);
      pending = pending.subarray(newline + 1);
      if (line.length > MAX_LINE_BYTES) return goodbye(500, 'Command line too long');
      lines.push(line.toString('utf8').replace(/\r$/, ''));
    }
    if (pending.length > MAX_LINE_BYTES) return goodbye(500, 'Command line too long');
    if (lines.length > MAX_WAITING_LINES) control.pause();
    if (!running) drain().catch(() => control.destroy());
  }

  async function drain() {
    running = true;
    while (lines.length > 0 && !closing) {
      await dispatch(lines.shift()!);
      if (lines.length <= MAX_WAITING_LINES / 2 && control.isPaused()) control.resume();
    }
    running = false;
  }

  async function dispatch(line: string) {
    const space = line.indexOf(' ');
    const verb = (space === -1 ? line : line.slice(0, space)).toUpperCase();
    const arg = space === -1 ? '' : line.slice(space + 1);
    if (verb === '') return;
    if (!account && !BEFORE_LOGIN.has(verb)) return reply(530, 'Please log in with USER and PASS');
    // RNTO must come right after RNFR (RFC 959 §4.1.3): anything else forgets the source.
    if (verb !== 'RNTO') renameFrom = null;
    const handler = Object.hasOwn(commands, verb) ? commands[verb] : undefined;
    if (!handler) return reply(502, 'Command not implemented');
    try {
      await handler(arg);
    } catch {
      // A filesystem error: answered without the real path (it would reveal where the home is).
      reply(550, 'Requested action not taken');
    }
  }

  /**
   * Where a client path points, or null (after answering) when it is missing, holds NUL or a line
   * break, or leaves the home — by its text or through a symbolic link.
   */
  async function place(arg: string, { allowRoot = true, required = true } = {}): Promise<Place | null> {
    if (required && arg === '') return refuse(501, 'A path is required');
    if (/[\r\n]/.test(arg)) return refuse(553, 'File name not allowed: it holds a line break');
    const found = locate(account!.home, cwd, arg);
    if (!found || (!allowRoot && found.virtual === '/')) return refuse(550, 'No such file or directory');
    if (!(await staysHome(account!.home, found.real))) return refuse(550, 'No such file or directory');
    return found;
  }

  function takeDoor(): PassiveDoor | null {
    const taken = door;
    door = null;
    return taken;
  }

  async function openDoor(): Promise<number> {
    door?.close();
    door = null;
    const opened = await openPassiveDoor();
    if (closing) opened.close();
    else door = opened;
    return opened.port;
  }

  /** One transfer over the passive door: `prepare` answers errors before any data moves (550); then
   *  150, the transfer, and 226 once the data connection is closed, since basic-ftp settles a transfer
   *  only when it has both. A client gone mid-transfer gets 426, to nobody. */
  async function withData(prepare: () => Promise<DataWork | null>) {
    const taken = takeDoor();
    if (!taken) return reply(425, 'Use EPSV or PASV first');
    transferring = taken;
    try {
      const work = await prepare();
      if (!work) return;
      let data: Socket;
      try {
        data = await taken.connection;
      } catch {
        return reply(425, "Can't open data connection");
      }
      // PROT P: the client starts a TLS handshake on the data connection (resuming the control one's session).
      if (dataProtection) data = taken.protect(dataProtection);
      reply(150, work.opening);
      // The data connection carries the activity now; it gets the idle limit instead.
      control.setTimeout(0);
      data.setTimeout(IDLE_MS, () => data.destroy());
      try {
        await work.run(data);
        await closed(data);
        reply(226, 'Transfer complete');
      } catch (error) {
        reply(...transferFailure(error));
      }
    } finally {
      transferring = null;
      taken.close();
      if (!closing) control.setTimeout(IDLE_MS);
    }
  }

  function listing(format: (entries: Entry[]) => string, { directoryOnly = false, lsOptions = false } = {}): Handler {
    return (arg) =>
      withData(async () => {
        // LIST takes ls options (basic-ftp sends "LIST -a" to servers without MLST): they change nothing here.
        const where = await place(lsOptions ? arg.replace(/^(-\S*\s*)+/, '') : arg, { required: false });
        if (!where) return null;
        const stats = await statOrNull(where.real);
        if (!stats) return refuse(550, 'No such file or directory');
        // RFC 3659 §7.2: MLSD names a directory; a file is a 501.
        if (directoryOnly && !stats.isDirectory()) return refuse(501, 'Not a directory');
        const text = format(await entriesOf(account!.home, where, stats));
        return { opening: 'Here comes the listing', run: (data) => pipeline(Readable.from([Buffer.from(text, 'utf8')]), data) };
      });
  }

  const commands: Record<string, Handler> = {
    USER: (arg) => {
      account = null;
      userName = arg;
      reply(331, 'Password required');
    },
    PASS: (arg) => {
      if (userName === null) return reply(503, 'USER first');
      const found = accounts.get(userName);
      userName = null;
      if (!found || found.password !== arg) return reply(530, 'Login incorrect');
      account = found;
      cwd = '/';
      reply(230, 'Logged in');
    },
    QUIT: () => goodbye(221, 'Goodbye'),
    NOOP: () => reply(200, 'OK'),
    SYST: () => reply(215, 'UNIX Type: L8'),
    FEAT: () => {
      const features = secureContext ? [...FEATURES, ...TLS_FEATURES] : FEATURES;
      if (!closing && control.writable) control.write(['211-Features:', ...features.map((f) => ` ${f}`), '211 End', ''].join('\r\n'));
    },
    OPTS: (arg) => {
      const option = arg.trim().toUpperCase();
      if (option === 'UTF8 ON') return reply(200, 'UTF-8 always on');
      // basic-ftp asks for every fact it can parse; these three are what MLSD sends.
      if (option.startsWith('MLST')) return reply(200, 'MLST OPTS type;size;modify;');
      reply(501, 'Option not understood');
    },
    TYPE: (arg) => {
      const type = arg.trim().toUpperCase();
      if (type === 'I' || type === 'A' || type === 'A N') return reply(200, `Type set to ${type}`);
      reply(504, 'Only TYPE A and I');
    },
    STRU: (arg) => (arg.trim().toUpperCase() === 'F' ? reply(200, 'Structure set to F') : reply(504, 'Only STRU F')),
    MODE: (arg) => (arg.trim().toUpperCase() === 'S' ? reply(200, 'Mode set to S') : reply(504, 'Only MODE S')),
    PWD: () => reply(257, `${quoted(cwd)} is the current directory`),
    CWD: async (arg) => {
      const where = await place(arg);
      if (!where) return;
      if (!(await statOrNull(where.real))?.isDirectory()) return reply(550, 'No such directory');
      cwd = where.virtual;
      reply(250, 'Directory changed');
    },
    CDUP: async () => {
      const where = await place('..');
      if (!where || !(await statOrNull(where.real))?.isDirectory()) return reply(550, 'No such directory');
      cwd = where.virtual;
      reply(200, 'Directory changed');
    },
    EPSV: async (arg) => {
      const protocol = arg.trim().toUpperCase();
      // "EPSV ALL" promises no PORT/EPRT will follow: always true here.
      if (protocol === 'ALL') return reply(200, 'EPSV ALL ok');
      if (protocol !== '' && protocol !== '1') return reply(522, 'Network protocol not supported, use (1)');
      reply(229, `Entering Extended Passive Mode (|||${await openDoor()}|)`);
    },
    PASV: async () => {
      const port = await openDoor();
      reply(227, `Entering Passive Mode (127,0,0,1,${port >> 8},${port & 0xff})`);
    },
    PORT: () => reply(502, 'Active mode is not supported, use EPSV or PASV'),
    EPRT: () => reply(502, 'Active mode is not supported, use EPSV or PASV'),
    MLSD: listing(mlsdLines, { directoryOnly: true }),
    LIST: listing(lsLines, { lsOptions: true }),
    NLST: listing(nameLines),
    SIZE: async (arg) => {
      const where = await place(arg);
      if (!where) return;
      const stats = await statOrNull(where.real);
      if (!stats?.isFile()) return reply(550, 'Not a plain file');
      reply(213, String(stats.size));
    },
    MDTM: async (arg) => {
      const where = await place(arg);
      if (!where) return;
      const stats = await statOrNull(where.real);
      if (!stats?.isFile()) return reply(550, 'Not a plain file');
      reply(213, timestamp(stats.mtime));
    },
    RETR: (arg) =>
      withData(async () => {
        const where = await place(arg);
        if (!where) return null;
        const stats = await statOrNull(where.real);
        if (!stats?.isFile()) return refuse(550, 'Not a plain file');
        return { opening: `Opening BINARY mode data connection (${stats.size} bytes)`, run: (data) => pipeline(createReadStream(where.real), data) };
      }),
    STOR: (arg) =>
      withData(async () => {
        const where = await place(arg, { allowRoot: false });
        if (!where) return null;
        const folder = await statOrNull(path.dirname(where.real));
        if (!folder?.isDirectory() || (await statOrNull(where.real))?.isDirectory()) return refuse(550, 'Cannot store there');
        return { opening: 'Ok to send data', run: (data) => pipeline(data, createWriteStream(where.real)) };
      }),
    RNFR: async (arg) => {
      const where = await place(arg, { allowRoot: false });
      if (!where) return;
      if (!(await statOrNull(where.real))) return reply(550, 'No such file or directory');
      renameFrom = where;
      reply(350, 'Ready for RNTO');
    },
    RNTO: async (arg) => {
      const from = renameFrom;
      renameFrom = null;
      if (!from) return reply(503, 'RNFR first');
      const to = await place(arg, { allowRoot: false });
      if (!to) return;
      await rename(from.real, to.real);
      reply(250, 'Renamed');
    },
    MKD: async (arg) => {
      const where = await place(arg, { allowRoot: false });
      if (!where) return;
      await mkdir(where.real);
      reply(257, `${quoted(where.virtual)} created`);
    },
    DELE: async (arg) => {
      const where = await place(arg, { allowRoot: false });
      if (!where) return;
      await unlink(where.real);
      reply(250, 'Deleted');
    },
    RMD: async (arg) => {
      const where = await place(arg, { allowRoot: false });
      if (!where) return;
      await rmdir(where.real);
      reply(250, 'Directory removed');
    },
    // Without a certificate these three stay out: 502, and basic-ftp goes on in plain FTP.
    ...(secureContext && {
      AUTH: (arg: string) => {
        const mechanism = arg.trim().toUpperCase();
        if (mechanism !== 'TLS' && mechanism !== 'SSL') return reply(504, 'Only AUTH TLS');
        if (encrypted) return reply(503, 'Already using TLS');
        startTls(secureContext);
      },
      PBSZ: (arg: string) => {
        if (!encrypted) return reply(503, 'AUTH TLS first');
        if (!/^\d+$/.test(arg.trim())) return reply(501, 'PBSZ takes a number');
        bufferSizeSet = true;
        // TLS has no protection buffer: 0 whatever was asked (RFC 4217).
        reply(200, 'PBSZ=0');
      },
      PROT: (arg: string) => {
        if (!bufferSizeSet) return reply(503, 'PBSZ first');
        const level = arg.trim().toUpperCase();
        if (level === 'P') dataProtection = secureContext;
        else if (level === 'C') dataProtection = null;
        else if (level === 'S' || level === 'E') return reply(536, 'Only PROT C and P');
        else return reply(504, 'Unknown protection level');
        reply(200, `Protection level set to ${level}`);
      },
    }),
  };

  return { end: () => control.destroy() };
}

/**
 * Resolves a client path against the virtual cwd, then under the home. path.posix.resolve from "/"
 * already stops ".." at the root; the relative check is the guard should that ever change.
 */
function locate(home: string, cwd: string, arg: string): Place | null {
  if (arg.includes('\0')) return null;
  const virtual = path.posix.resolve(cwd, arg === '' ? '.' : arg);
  const real = path.join(home, virtual);
  const inside = path.relative(home, real);
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return null;
  return { virtual, real };
}

/**
 * True when `real` resolves inside the home with every symbolic link followed: a link in the folder
 * pointing at /etc (or a folder link to /) must not take a client out of it, as locate's text check
 * alone would let it. A name not made yet (STOR, MKD, RNTO) is judged by its nearest existing
 * parent; a dangling link in its place is refused, since writing through it would create its target.
 */
async function staysHome(home: string, real: string): Promise<boolean> {
  let root: string;
  try {
    root = await realpath(home);
  } catch {
    return false;
  }
  let probe = real;
  for (;;) {
    try {
      const resolved = await realpath(probe);
      return resolved === root || resolved.startsWith(`${root}${path.sep}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return false;
      if (probe === real && (await lstat(real).then(() => true, () => false))) return false;
      const parent = path.dirname(probe);
      if (parent === probe) return false;
      probe = parent;
    }
  }
}

interface PassiveDoor {
  port: number;
  /** The data connection, once the client opens it; rejects after IDLE_MS or when the door closes. */
  connection: Promise<Socket>;
  /** The opened data connection wrapped in TLS (server side), closed with the door. */
  protect(context: SecureContext): Socket;
  close(): void;
}

/** A one-use listener on loopback for the next transfer's data connection (RFC 959 PASV, RFC 2428 EPSV). */
async function openPassiveDoor(): Promise<PassiveDoor> {
  const server = createServer();
  server.maxConnections = 1;
  server.on('error', () => {});
  let accepted: Socket | null = null;
  let fail: (error: Error) => void = () => {};
  // A door nobody walks through closes itself.
  const timer = setTimeout(() => close(), IDLE_MS);
  timer.unref();
  const connection = new Promise<Socket>((resolve, reject) => {
    fail = reject;
    server.on('connection', (socket) => {
      socket.on('error', () => socket.destroy());
      if (accepted) return void socket.destroy();
      accepted = socket;
      server.close();
      clearTimeout(timer);
      resolve(socket);
    });
  });
  // Awaited only when a transfer command comes; an unused door must not report an unhandled rejection.
  connection.catch(() => {});
  function close() {
    clearTimeout(timer);
    server.close();
    accepted?.destroy();
    fail(new Error('passive door closed'));
  }
  function protect(context: SecureContext): Socket {
    if (!accepted) throw new Error('no data connection to protect');
    const secure = new TLSSocket(accepted, { isServer: true, secureContext: context });
    // A failed handshake (or a client gone) fails the transfer, never the process.
    secure.on('error', () => secure.destroy());
    accepted = secure;
    return secure;
  }
  await listen(server, 0);
  return { port: (server.address() as AddressInfo).port, connection, protect, close };
}

function closed(socket: Socket): Promise<void> {
  return socket.closed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

/** 426 when the client went away (RFC 959), 451 for a failure on this side. */
function transferFailure(error: unknown): [number, string] {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED'].includes(code)) return [426, 'Connection closed; transfer aborted'];
  return [451, 'Transfer aborted: local error'];
}

async function statOrNull(real: string): Promise<Stats | null> {
  try {
    return await stat(real);
  } catch {
    return null;
  }
}

interface Entry {
  name: string;
  stats: Stats;
}

/** What stands for a CR or LF of a name in a listing line: a line break there would end the line. */
export const LINE_BREAK_STAND_IN = '\uFFFD';

/**
 * A directory's files and folders (a file lists itself). Entries that vanish or whose links lead
 * out of the home are left out. A name holding a CR or LF cannot be written on one listing line,
 * nor asked for in a command: it is listed with each break as LINE_BREAK_STAND_IN, so a client
 * sees the file is there and can say why it is not taking it, and any command on it is a 550.
 */
async function entriesOf(home: string, where: Place, stats: Stats): Promise<Entry[]> {
  if (!stats.isDirectory()) return [{ name: path.posix.basename(where.virtual), stats }];
  const entries: Entry[] = [];
  for (const name of (await readdir(where.real)).sort()) {
    const real = path.join(where.real, name);
    const entryStats = await statOrNull(real);
    if (!entryStats || !(entryStats.isFile() || entryStats.isDirectory()) || !(await staysHome(home, real))) continue;
    entries.push({ name: name.replace(/[\r\n]/g, LINE_BREAK_STAND_IN), stats: entryStats });
  }
  return entries;
}

/** RFC 3659 §7 facts, the ones FEAT advertises. */
function mlsdLines(entries: Entry[]): string {
  return entries.map(({ name, stats }) => `type=${stats.isDirectory() ? 'dir' : 'file'};size=${stats.size};modify=${timestamp(stats.mtime)}; ${name}\r\n`).join('');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182 * 86_400_000;

/** `ls -l` lines: the time for the last half year, the year before that, as ls does (UTC here). */
function lsLines(entries: Entry[]): string {
  const now = Date.now();
  return entries
    .map(({ name, stats }) => {
      const mode = [...'rwxrwxrwx'].map((c, i) => (stats.mode & (0o400 >> i) ? c : '-')).join('');
      const at = stats.mtime;
      const day = `${MONTHS[at.getUTCMonth()]} ${String(at.getUTCDate()).padStart(2)}`;
      const time = Math.abs(now - at.getTime()) < HALF_YEAR_MS ? `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}` : ` ${at.getUTCFullYear()}`;
      return `${stats.isDirectory() ? 'd' : '-'}${mode} 1 ftp ftp ${String(stats.size).padStart(12)} ${day} ${time} ${name}\r\n`;
    })
    .join('');
}

function nameLines(entries: Entry[]): string {
  return entries.map(({ name }) => `${name}\r\n`).join('');
}

/** YYYYMMDDHHMMSS in UTC (RFC 3659 §2.3). */
function timestamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** RFC 959 PWD/MKD form: in quotes, a quote in the name doubled. */
function quoted(virtual: string): string {
  return `"${virtual.replaceAll('"', '""')}"`;
}

/** A reply is one line: a CR or LF from a client's path must not start a forged reply. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}
