// POST /health: the official CLI sends {package_version, uname, ...} before every command and, on any
// answer but 200, prints `message` and stops. The service uses it to refuse outdated clients; here a
// config `minClientVersion` (POST /_engine/config, CLI --min-client-version) does the same: a client
// whose package_version is older, missing or unreadable is answered 426 with a message to update.

import { json, type Reply } from './http';
import { olderThan, parseVersion } from './offered';
import { parseJsonBody } from './validate';

export function healthReply(rawBody: string, minClientVersion: string | null): Reply {
  const ok = json(200, { status: 'ok', message: 'TensorPool local engine is healthy' });
  const min = parseVersion(minClientVersion);
  if (!min) return ok;
  const parsed = parseJsonBody(rawBody);
  const body = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {};
  const sent = (body as Record<string, unknown>).package_version;
  const version = parseVersion(sent);
  if (version && !olderThan(version, min)) return ok;
  const message =
    `This client (version ${typeof sent === 'string' && sent.trim() ? sent.trim() : 'unknown'}) is no longer ` +
    `supported: version ${minClientVersion} or later is required. Please update it and try again.`;
  return json(426, { status: 'outdated', message, detail: message, min_version: minClientVersion });
}
