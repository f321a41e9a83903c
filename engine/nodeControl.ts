// The control surface's part for real nodes (engine/nodes.ts), under /_engine/nodes:
//   GET  /_engine/nodes  -> { mode, enabled, data_dir, user, pinned_ports, nodes: [{ instance_id, cluster_id,
//                           state: booting|up|down|failed, host, port, user, dir, pid, error }] }
//   POST /_engine/nodes { ports?: [n, ...], down?: "<instance id>" }
//        ports: the next nodes created listen on these ports, in order (re-create a cluster on the same
//        port); down: KILL that node's sshd and its sessions while its cluster stays RUNNING ("the node's
//        server is down"; its address stays, nothing answers). -> the GET answer

import { json, type Reply } from './http';
import type { NodeManager } from './nodes';

const bad = (message: string): Reply => json(400, { error: message });

export function nodesControl(
  nodes: NodeManager | undefined,
  method: string,
  body: Record<string, unknown>,
): Reply {
  if (!nodes) return json(404, { error: 'this engine runs no real nodes' });
  if (method === 'GET') return json(200, nodes.describe());
  const { ports, down, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length) return bad(`unknown field ${unknown[0]}`);
  if (ports !== undefined) {
    if (!Array.isArray(ports) || !ports.every((p) => Number.isInteger(p) && p >= 1024 && p <= 65535))
      return bad('ports must be a list of integers from 1024 to 65535');
    nodes.pinPorts(ports as number[]);
  }
  if (down !== undefined) {
    if (typeof down !== 'string') return bad('down must be an instance id');
    if (!nodes.serverDown(down)) return json(404, { error: `no running node ${down}` });
  }
  return json(200, nodes.describe());
}
