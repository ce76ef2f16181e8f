// Connections made on a company's behalf (security/outbound-guard.ts). A flow's integration step,
// a status callback or an FTP folder never reaches the sandbox's own endpoints, this server or a
// private address — in any spelling, refused when saved (400, 99931) and again when called, on the
// address actually connected to (pinned, so a second DNS answer changes nothing), following no
// redirect. In the sandbox only the targets named explicitly are reached, never this server's own
// port. The FTP password goes only to the host, port and user it was given for. On PGlite and
// (with DATABASE_URL) PostgreSQL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';
import { integrationCaller } from '../../src/server/messaging/flow-calls.ts';
import { OutboundPolicy } from '../../src/server/security/outbound-guard.ts';
import { menuFlow } from '../unit/flows-fixtures.ts';
import { fileHarness, signedIn } from './file-harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');

const withUrl = (url: string): FlowDefinition => {
  const flow = menuFlow();
  flow.steps = flow.steps.map((s) => (s.id === 'api' ? { ...s, settings: { ...s.settings, url } } : s));
  return flow;
};

// Every spelling of "this machine" or a private network the URL parser takes, and the sandbox's paths.
const REFUSED = [
  'http://127.0.0.1:8080/v1/sandbox/outbox', 'http://localhost:8080/v1/sandbox/outbox', 'http://localhost./x', 'https://localhost./x', 'http://LocalHost/x',
  'http://api.localhost/x', 'http://[::1]/x', 'http://[::]/x', 'http://0.0.0.0:8080/x', 'http://0/x', 'http://2130706433/x', 'http://0x7f.1/x', 'http://0x7f000001/x',
  'http://017700000001/x', 'http://127.1/x', 'http://[::ffff:127.0.0.1]/x', 'http://[::ffff:7f00:1]/x', 'http://[0:0:0:0:0:ffff:127.0.0.1]/x', 'http://10.0.0.5/x',
  'http://192.168.1.4/x', 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/x', 'http://[fd00::1]/x', 'file:///etc/passwd', 'ftp://ftp.example.co/x',
  'gopher://127.0.0.1:25/x', 'https://erp.example.co/v1/sandbox/outbox', 'https://erp.example.co/%761/sandbox/outbox', 'https://erp.example.co//sandbox/inbound',
  'http://{{host}}/saldo', 'https://erp.example.co:{{puerto}}/saldo', '{{url}}',
];

describe("a flow's integration URL, when saved", () => {
  it.each(REFUSED)('refuses %s (400, 99931 on the step)', async (url) => {
    const res = await h.op('flows.create', { token: tokens.manager, body: { name: `Integración ${REFUSED.indexOf(url)}`, draft: withUrl(url) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: 'steps/api/url', code: '99931' }] });
  });

  it('takes a public URL with variables in its path and query; refuses a bad one on update and on publishing a draft stored before the check', async () => {
    const created = await h.op('flows.create', { token: tokens.manager, body: { name: 'Saldo público', draft: withUrl('https://erp.example.co/saldo/{{opcion}}?c={{cedula}}') } });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as number;
    const update = await h.op('flows.update', { token: tokens.manager, params: { id }, body: { draft: withUrl('http://2130706433:8080/v1/sandbox/outbox') } });
    expect([update.statusCode, update.json().code]).toEqual([400, '99931']);
    await h.db.updateTable('flows').set({ draft: JSON.stringify(withUrl('http://0x7f.1:8080/v1/sandbox/outbox')) }).where('id', '=', id).execute();
    const publish = await h.op('flows.publish', { token: tokens.manager, params: { id } });
    expect([publish.statusCode, publish.json().code, publish.json().errors[0].field]).toEqual([400, '99931', 'steps/api/url']);
    expect((await h.db.selectFrom('flow_versions').select('version').where('flow_id', '=', id).execute())).toEqual([]);
  });
});

describe("a flow's integration call", () => {
  let product: Server;
  let standIn: Server;
  let other: Server;
  const hits = { product: 0, standIn: 0, other: 0 };
  const port = (s: Server) => (s.address() as AddressInfo).port;
  const listen = async (s: Server) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));

  beforeAll(async () => {
    // "This server": what the attack read was its sandbox outbox.
    product = createServer((_req, res) => { hits.product++; res.writeHead(200, { 'content-type': 'application/json' }).end('[{"body":"Tu código es 123456"}]'); });
    standIn = createServer((req, res) => {
      hits.standIn++;
      if (req.url === '/redirect') return void res.writeHead(302, { location: `http://127.0.0.1:${port(product)}/v1/sandbox/outbox` }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { balance: '50.000', host: req.headers.host } }));
    });
    other = createServer((_req, res) => { hits.other++; res.writeHead(200).end('private'); });
    await Promise.all([listen(product), listen(standIn), listen(other)]);
  });
  afterAll(async () => {
    for (const s of [product, standIn, other]) await new Promise((resolve) => s.close(resolve));
  });

  /** The sandbox as start.ts makes it: the stand-in named, this server's port its own. */
  const sandboxPolicy = (options: { resolve?: ConstructorParameters<typeof OutboundPolicy>[0]['resolve']; targets?: string[] } = {}) => {
    const policy = new OutboundPolicy({ sandbox: true, targets: options.targets ?? [`127.0.0.1:${port(standIn)}`], resolve: options.resolve });
    policy.ownPort(port(product));
    return policy;
  };
  const call = (policy: OutboundPolicy, url: string) => integrationCaller({ outbound: policy })({ method: 'GET', url, contentType: 'application/json', body: null, timeoutSeconds: 5 });

  it("never reaches this server's sandbox outbox, in the sandbox too, even when its port is named as a target", async () => {
    for (const url of [`http://127.0.0.1:${port(product)}/v1/sandbox/outbox`, `http://127.0.0.1:${port(product)}/saldo`, `http://2130706433:${port(product)}/saldo`, `http://[::ffff:127.0.0.1]:${port(product)}/saldo`]) {
      await expect(call(sandboxPolicy(), url), url).rejects.toThrow(/refused/);
      await expect(call(sandboxPolicy({ targets: [`127.0.0.1:${port(product)}`] }), url), url).rejects.toThrow(/refused/);
    }
    expect(hits.product).toBe(0);
  });

  it('reaches a stand-in the sandbox names, and no other port of this machine', async () => {
    expect(await call(sandboxPolicy(), `http://127.0.0.1:${port(standIn)}/saldo`)).toMatchObject({ status: 200, body: { data: { balance: '50.000' } } });
    await expect(call(sandboxPolicy(), `http://127.0.0.1:${port(other)}/saldo`)).rejects.toThrow(/refused/);
    await expect(call(sandboxPolicy(), `http://localhost:${port(other)}/saldo`)).rejects.toThrow(/refused/);
    await expect(call(new OutboundPolicy({ sandbox: false, targets: [`127.0.0.1:${port(standIn)}`] }), `http://127.0.0.1:${port(standIn)}/saldo`)).rejects.toThrow(/refused/);
    expect(hits.other).toBe(0);
  });

  it('follows no redirect: a 302 towards this server is an answer, not a second request', async () => {
    expect(await call(sandboxPolicy(), `http://127.0.0.1:${port(standIn)}/redirect`)).toMatchObject({ status: 302 });
    expect(hits.product).toBe(0);
  });

  it('connects to the address it checked (pinned), and refuses a name with any private answer (DNS rebinding)', async () => {
    // A name only this resolver knows: the request reaching the stand-in proves the socket used the checked answer.
    const pinned = sandboxPolicy({ resolve: async (host) => (host === 'erp.integration.test' ? [{ address: '127.0.0.1', family: 4 }] : []) });
    expect(await call(pinned, `http://erp.integration.test:${port(standIn)}/saldo`)).toMatchObject({ status: 200, body: { data: { host: `erp.integration.test:${port(standIn)}` } } });
    // A public answer beside a private one, or a name that now resolves to this server: refused before connecting.
    const rebinding = sandboxPolicy({ resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }] });
    await expect(call(rebinding, `http://erp.integration.test:${port(product)}/saldo`)).rejects.toThrow(/refused/);
    const publicOnly = new OutboundPolicy({ sandbox: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    await expect(call(publicOnly, `http://erp.integration.test:${port(standIn)}/saldo`)).rejects.toThrow(/refused/);
    expect(hits.product).toBe(0);
  });
});

describe('the FTP folder', () => {
  const save = (ftp: Record<string, unknown>) => h.op('credentials.updateSettings', { token: tokens.manager, body: { allowedIps: [], notificationEmail: null, ftp: { port: 21, user: 'empresa', directory: '/', ...ftp } } });

  it.each(['127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', '0', 'localhost', '::1', '::ffff:127.0.0.1', '10.1.2.3', '169.254.169.254'])('refuses the host %s when saved (400, 99931 on ftp.host)', async (host) => {
    const res = await save({ host, password: 'clave-ftp-2026' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: 'ftp.host', code: '99931' }] });
  });

  it('asks for the password again when the host, port or user changes; the mask keeps it only for the same folder', async () => {
    expect((await save({ host: 'ftp.empresa.co', password: 'clave-ftp-2026' })).statusCode).toBe(200);
    const stored = async () => h.db.selectFrom('api_settings').select(['ftp_host', 'ftp_port', 'ftp_user', 'ftp_password']).where('ftp_host', 'is not', null).executeTakeFirstOrThrow();
    const before = await stored();
    const mask = (await h.op('credentials.getSettings', { token: tokens.manager })).json().ftp.password as string;
    for (const moved of [{ host: 'ftp.atacante.co' }, { host: 'ftp.empresa.co', port: 2121 }, { host: 'ftp.empresa.co', user: 'otro' }]) {
      const res = await save({ ...moved, password: mask });
      expect(res.statusCode, JSON.stringify(moved)).toBe(400);
      expect(res.json()).toMatchObject({ code: '99999', errors: [{ field: 'ftp.password', code: '99999' }] });
    }
    expect(await stored()).toEqual(before);
    expect((await save({ host: 'ftp.empresa.co', password: mask, directory: '/entrada' })).statusCode).toBe(200);
    expect((await save({ host: 'ftp.atacante.co', password: 'otra-clave-2026' })).statusCode).toBe(200);
    expect((await stored()).ftp_host).toBe('ftp.atacante.co');
  });
});
