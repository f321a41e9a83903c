// The control surface's part for real nodes (engine/nodes.ts), under /_engine/nodes:
//   GET  /_engine/nodes  -> { mode, enabled, data_dir, user, pinned_ports, nodes: [{ instance_id, cluster_id,
//                           state: booting|up|down|failed, host, port, user, dir, pid, error }] }
//   POST /_engine/nodes { ports?: [n, ...], down?: "<instance id>", drop?: "<instance id>" }
//        ports: the next nodes created listen on these ports, in order (re-create a cluster on the same
//        port); down: KILL that node's sshd and its sessions while its cluster stays RUNNING ("the node's
//        server is down"; its address stays, nothing answers); drop: KILL that node's open sessions only
//        (every connection drops mid-stream, the server still listens, so a client can connect again).
//        -> the GET answer, plus `dropped` (the processes ended) for drop

import { json, type Reply } from './http';
import type { NodeManager } from './nodes';
import { processTree } from './processTree';

const bad = (message: string): Reply => json(400, { error: message });

/** KILL everything below an up node's sshd (its sessions and what they run); the listener stays. */
function dropSessions(nodes: NodeManager, instanceId: string): number[] | undefined {
  const list = nodes.describe().nodes as Array<{ instance_id: string; state: string; pid: number | null }>;
  const node = list.find((n) => n.instance_id === instanceId && n.state === 'up' && n.pid);
  if (!node?.pid) return undefined;
  const below = processTree(node.pid).slice(1);
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return below;
}

export function nodesControl(
  nodes: NodeManager | undefined,
  method: string,
  body: Record<string, unknown>,
): Reply {
  if (!nodes) return json(404, { error: 'this engine runs no real nodes' });
  if (method === 'GET') return json(200, nodes.describe());
  const { ports, down, drop, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length) return bad(`unknown field ${unknown[0]}`);
  if (ports !== undefined) {
    if (!Array.isArray(ports) || !ports.every((p) => Number.isInteger(p) && p >= 1024 && p <= 65535))
      return bad('ports must be a list of integers from 1024 to 65535');
    nodes.pinPorts(ports as number[]);
  }
  let dropped: number[] | undefined;
  if (drop !== undefined) {
    if (typeof drop !== 'string') return bad('drop must be an instance id');
    dropped = dropSessions(nodes, drop);
    if (!dropped) return json(404, { error: `no running node ${drop}` });
  }
  if (down !== undefined) {
    if (typeof down !== 'string') return bad('down must be an instance id');
    if (!nodes.serverDown(down)) return json(404, { error: `no running node ${down}` });
  }
  return json(200, dropped ? { ...nodes.describe(), dropped: dropped.length } : nodes.describe());
}
