// The engine where OpenSSH's sshd is missing (engine/nodes.ts): 'auto' says once what to install and goes on
// with unreachable nodes (so `npm run demo` still starts); 'require' (the test suites) refuses to start.
import * as assert from 'node:assert/strict';
import { NodeManager } from '../../../engine/nodes';

describe('engine: without sshd', () => {
  const missing = '/nonexistent/tensorpool-test/sshd';

  it("'auto' says once why and how to install it, then runs with unreachable nodes", () => {
    const said: string[] = [];
    const nodes = new NodeManager({ mode: 'auto', sshdPath: missing, warn: (l) => said.push(l) });
    assert.equal(nodes.enabled, false);
    assert.equal(nodes.dataDir, undefined, 'no data folder is made');
    assert.equal(said.length, 1);
    assert.match(said[0], new RegExp(`${missing} is not installed`));
    assert.match(said[0], /apt-get install -y openssh-server openssh-client rsync/);
    assert.match(said[0], /unreachable/);
  });

  it("'require' refuses to start, with the install command", () => {
    assert.throws(
      () => new NodeManager({ mode: 'require', sshdPath: missing, warn: () => assert.fail('no warning') }),
      /real cluster nodes need OpenSSH's sshd.*\n.*apt-get install -y openssh-server/,
    );
  });
});
