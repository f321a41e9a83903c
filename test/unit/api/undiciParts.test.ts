/**
 * The transport's own way into undici (src/api/undici.ts): undici's files required one by one instead of
 * its index. Checked against the installed undici, so an undici update that moves them fails here.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as undici from 'undici';
import { startEngine, type RunningEngine } from '../../../engine/server';
import { envHttpProxyAgent, request, webSockets } from '../../../src/api/undici';

const TOKEN = 'tp_undici_parts_token_1';

describe("API transport: undici's parts without its index", function () {
  let engine: RunningEngine;

  before(async () => {
    engine = await startEngine({ tokens: [TOKEN] });
  });
  after(() => engine.close());

  it('answers a request as undici.request() does, with the same status and body', async () => {
    const headers = { accept: 'application/json', authorization: `Bearer ${TOKEN}` };
    const ours = await request(`${engine.url}/me?x=1`, { method: 'GET', headers });
    const theirs = await undici.request(`${engine.url}/me?x=1`, { method: 'GET', headers });
    assert.equal(ours.statusCode, 200);
    assert.equal(ours.statusCode, theirs.statusCode);
    assert.deepEqual(await ours.body.json(), await theirs.body.json());
    const refused = await request(`${engine.url}/me`, { method: 'GET' });
    assert.equal(refused.statusCode, 401);
    await refused.body.dump();
  });

  it("makes undici's own EnvHttpProxyAgent", async () => {
    const agent = envHttpProxyAgent({ httpProxy: 'http://127.0.0.1:9', noProxy: '127.0.0.1' });
    assert.ok(agent instanceof undici.EnvHttpProxyAgent);
    await agent.close();
  });

  it("gives undici's own WebSocket and ping, the ones its index exports", () => {
    const { WebSocket, ping } = webSockets();
    assert.equal(WebSocket, undici.WebSocket);
    assert.equal(ping, undici.ping);
  });

  it("in a fresh process: requests go out without loading undici's index, and dispatchers can open tunnels", async () => {
    const transport = path.join(__dirname, '../../../src/api/undici.js');
    const script = `
      const { request } = require(${JSON.stringify(transport)});
      request(process.argv[1] + '/me', { headers: { authorization: 'Bearer ' + process.argv[2] } }).then(async (res) => {
        await res.body.dump();
        const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]undici[\\\\/]index\\.js$/.test(f));
        const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
        console.log(JSON.stringify({ status: res.statusCode, loaded, connect: typeof Dispatcher.prototype.connect }));
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, engine.url, TOKEN], {
      cwd: path.dirname(transport),
    });
    assert.deepEqual(JSON.parse(stdout), { status: 200, loaded: [], connect: 'function' });
  });
});
