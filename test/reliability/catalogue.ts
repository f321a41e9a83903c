/**
 * What the reliability suite must cover: the fault kinds (what a client meets on the way to the
 * service and back, a hang and a DNS failure among them), the corpus of bad input values for every
 * wizard field, the sign-in box and the API URL setting, and a leak detector for secrets. The table's
 * totals are the sizes of these lists, so a kind or value no test covers counts as not handled.
 */
import { ED25519_KEY, RSA_PRIVATE_KEY_HEAD } from '../fixtures/payloads';
import { ACCEPT, ESCAPE } from '../fixtures/scriptedPrompter';

// ---- fault kinds ---------------------------------------------------------------------------------

export const FAULT_KINDS = {
  '500': '500 Internal Server Error',
  '502-html': '502 Bad Gateway with an HTML page',
  '503': '503 Service Unavailable',
  '504': '504 Gateway Timeout',
  '429-retry-after': '429 with Retry-After',
  '429-no-retry-after': '429 without Retry-After',
  slow: 'an answer slower than the timeout',
  hang: 'no answer at all (the socket stays open)',
  'drop-before': 'connection dropped before the server acted on the request',
  'drop-after': 'connection dropped after the server acted on the request',
  refused: 'connection refused (nothing was sent)',
  dns: 'DNS failure',
  truncated: 'truncated JSON',
  'shape-missing': 'JSON missing required fields',
  'shape-types': 'JSON with fields of the wrong type',
  'shape-extra': 'JSON with extra fields',
  'empty-200': 'an empty body with 200',
  '401-mid-session': '401 in the middle of a session',
  '403': '403 Forbidden',
  '404-vanished': '404 for a cluster that vanished',
  stuck: 'a request that never leaves PROCESSING',
  'unknown-status': 'an unknown request status',
  'text-only': 'a list answer with only text',
  'huge-list': 'a huge list (10,000 clusters)',
} as const;

export type FaultKind = keyof typeof FAULT_KINDS;

/**
 * The operations that came after the cluster ones: the job WebSockets (push, listen), job REST calls and
 * downloads, storage volumes and the POST /health version check. Covered by node/operationFaults.test.ts
 * (the client) and host/operationFaults.test.ts (the extension).
 */
export const OPERATION_FAULT_KINDS = {
  'push-refused': 'job push: the WebSocket upgrade refused (HTTP 503)',
  'push-unreachable': 'job push: connection refused (nothing listening)',
  'push-1006-early': 'job push: connection lost (1006) before any answer',
  'push-1006-mid': 'job push: connection lost (1006) mid-push, after the job id',
  'push-reason': 'job push: closed with a code and a reason',
  'push-silent': 'job push: a silent peer (no message, no pong)',
  'push-slow': 'job push: a slow peer that still answers pings',
  'listen-1006': 'job log: the stream dropped mid-log (1006)',
  'listen-reason': 'job log: closed with a code and a reason',
  'listen-silent': 'job log: a silent peer (no message, no pong)',
  'listen-refused': 'job log: the WebSocket upgrade refused once',
  'listen-always-drops': 'job log: every connection dropped',
  'listen-drop-at-end': 'job log: the stream dropped while the job ended',
  'job-cancel-drop-after': 'job cancel: connection dropped after the server acted',
  'job-info-500': 'job info: 500 while following',
  'job-output-cut': 'job outputs: a download cut off mid-body',
  'volume-stuck': 'a volume request that never leaves PROCESSING',
  'volume-failed': 'a volume request that ends FAILED with a reason',
  'volume-list-500': 'the volume list answers 500',
  'health-outdated': 'POST /health refuses this client version (426)',
  'health-500': 'POST /health answers 500',
} as const;

export type OperationFaultKind = keyof typeof OPERATION_FAULT_KINDS;

/** The fault that makes a volume create's request end FAILED with a reason (its /request/info answer). */
export function failedVolumeRequest(
  requestId: string,
  reason: string,
): Record<string, unknown> & { path: string } {
  return {
    method: 'GET',
    path: `/request/info/${requestId}`,
    status: 200,
    times: -1,
    body: {
      request_id: requestId,
      request_type: 'STORAGE_CREATE',
      status: 'FAILED',
      external_message: reason,
    },
  };
}
/** GPU telemetry over the real ssh to the engine's nodes, and the price routes (host/gpuFaults.test.ts). */
export const GPU_FAULT_KINDS = {
  'gpu-unreachable': "GPU telemetry: the node's ssh server is down (connection refused)",
  'gpu-drop-mid-stream': 'GPU telemetry: the ssh connection dropped mid-stream (the server still listens)',
  'gpu-smi-hang': 'GPU telemetry: nvidia-smi hanging',
  'gpu-smi-garbage': 'GPU telemetry: nvidia-smi printing garbage',
  'gpu-login-refused':
    'GPU telemetry: the node refuses the login (a cluster created without one of the user’s keys): no retries',
  'quote-failing': 'prices: the quote routes answering 500',
  'balance-missing': 'prices: the balance missing from the organisation answer, or the answer failing',
} as const;

export type GpuFaultKind = keyof typeof GPU_FAULT_KINDS;

/** Notebooks on a real node's Jupyter server (host/notebookFaults.test.ts). */
export const NOTEBOOK_FAULT_KINDS = {
  'nb-jupyter-missing': 'notebooks: Jupyter not on the node’s PATH, or installed but not runnable',
  'nb-login-refused': 'notebooks: the node refuses the login (none of the user’s keys)',
  'nb-port-taken': 'notebooks: the port the server would use is taken on the node',
  'nb-wrong-token': 'notebooks: the server refuses the token (403)',
  'nb-html-page': 'notebooks: an HTML error page where the server should be',
  'nb-hung-port': 'notebooks: a port that accepts and never answers (bounded wait, cancellable)',
  'nb-hung-login': 'notebooks: the node’s sshd accepts and never answers (the stop button ends our ssh)',
  'nb-kernel-died': 'notebooks: the kernel killed mid-cell (os.kill(os.getpid(), 9))',
  'nb-million-lines': 'notebooks: a cell printing 1,000,000 lines',
  'nb-50mb-output': 'notebooks: a 50 MB output (a stream and a result)',
  'nb-hostile-html': 'notebooks: HTML and JavaScript outputs from the kernel',
  'nb-other-language': 'notebooks: cells in another language (R, Julia)',
} as const;

export type NotebookFaultKind = keyof typeof NOTEBOOK_FAULT_KINDS;

export const FAULT_KIND_IDS: string[] = [
  ...Object.keys(FAULT_KINDS),
  ...Object.keys(OPERATION_FAULT_KINDS),
  ...Object.keys(GPU_FAULT_KINDS),
  ...Object.keys(NOTEBOOK_FAULT_KINDS),
];
export const faultSubject = (k: string): string => `fault:${k}`;

export const HTML_502 =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{font:14px sans-serif}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';

// ---- bad input ----------------------------------------------------------------------------------

export type InputField =
  | 'instanceType'
  | 'numNodes'
  | 'name'
  | 'key'
  | 'container'
  | 'editName'
  | 'bucket'
  | 'token'
  | 'apiUrl'
  | 'volumeSize'
  | 'volumeName'
  | 'jobFile'
  | 'keyPaste'
  | 'keyName'
  | 'clusterRef'
  | 'pullFolder';

export interface BadInput {
  /** `bad:<field>:<n>`: stable within a run, used to merge the Node and host parts. */
  readonly id: string;
  readonly field: InputField;
  readonly value: string;
  /** What the rejection message must say (the specific reason, not a generic "invalid"). */
  readonly expect: RegExp;
}

const INSTANCE: Array<[string, RegExp]> = [
  ['', /Enter an instance type/],
  ['   ', /Enter an instance type/],
  ['xH100', /GPU count before the "x"/],
  ['8x', /GPU model after the "x"/],
  ['8 x H100', /contains spaces/],
  ['\u0663xH100', /plain ASCII digits/],
  ['\uff18xH100', /plain ASCII digits/],
  ['0xH100', /not an instance type.*<count>x<model>/],
  ['-1xH100', /not an instance type/],
  ['8*H100', /not an instance type/],
  ['H100', /not an instance type/],
  ['99999xH100', /not an instance type/],
];
const NODES: Array<[string, RegExp]> = [
  ['', /Enter the number of nodes/],
  ['   ', /Enter the number of nodes/],
  ['0', /at least 1 node/],
  ['00', /at least 1 node/],
  ['-1', /cannot be negative/],
  ['-5', /cannot be negative/],
  ['1.5', /whole number/],
  ['0.5', /whole number/],
  ['1,5', /whole number/],
  ['1e3', /not a number/],
  ['1000000000', /more than the 512/],
  ['513', /more than the 512/],
  ['two', /not a number/],
  ['\u0663', /not a number/],
  ['0x10', /not a number/],
  ['+2', /not a number/],
  ['2 nodes', /not a number/],
];
const NAMES: Array<[string, RegExp]> = [
  ['   ', /cannot be empty/],
  ['a\u0007b', /control characters/],
  ['a\nb', /control characters/],
  ['tab\tname', /control characters/],
  ['null\u0000byte', /control characters/],
  ['a'.repeat(10_000), /10000 characters long; use at most 64/],
  ['a'.repeat(65), /65 characters long/],
  [' lead', /spaces at the start or end/],
  ['trail ', /spaces at the start or end/],
  ['has space', /Use letters, digits/],
  ['-dash', /starting with a letter or digit/],
  ['semi;colon', /Use letters, digits/],
  ['slash/name', /Use letters, digits/],
  ['na\u00efve', /Use letters, digits/],
  ['x\u202ey', /Use letters, digits/],
];
const KEYS: Array<[string, RegExp]> = [
  ['', /Paste an SSH public key/],
  ['   ', /Paste an SSH public key/],
  [RSA_PRIVATE_KEY_HEAD, /PRIVATE key: never share it/],
  ['-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', /PRIVATE key/],
  ['hello world', /not an SSH public key/],
  ['ssh-ed25519', /not an SSH public key/],
  ['ssh-ed25519 AAAA', /too short/],
  [`${ED25519_KEY}\n${ED25519_KEY}`, /single public key on one line/],
  [
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI!!!notbase64!!!hF0t1Kq0n3xj5m2r0Jc4kUuA9y8',
    /not an SSH public key/,
  ],
  ['PuTTY-User-Key-File-3: ssh-ed25519', /not an SSH public key/],
];
const IMAGES: Array<[string, RegExp]> = [
  ['my image', /cannot contain spaces/],
  ['nvcr.io/nvidia/pytorch:24.05 py3', /cannot contain spaces/],
  [' ubuntu', /cannot contain spaces/],
  ['UPPER/case:tag', /not a valid image reference/],
  ['a'.repeat(600), /600 characters long/],
  ['ubuntu:', /not a valid image reference/],
  ['http://registry.example/x', /not a valid image reference/],
  ['ubuntu@sha256:short', /not a valid image reference/],
];
const EDIT_NAMES: Array<[string, RegExp]> = [
  ['', /cannot be empty/],
  ['bad\u0007name', /control characters/],
  ['b'.repeat(10_000), /10000 characters long/],
  ['has space', /Use letters, digits/],
];
const BUCKETS: Array<[string, RegExp]> = [
  ['', /Enter a bucket name/],
  ['ab', /3 to 63 characters/],
  ['UPPER', /only lowercase letters/],
  ['192.168.1.1', /look like an IP address/],
  ['bad..dots', /two dots in a row/],
  ['-start', /start and end with a letter or digit/],
  ['xn--abc', /cannot start with "xn--"/],
];
const TOKENS: Array<[string, RegExp]> = [
  ['', /Paste your TensorPool API token/],
  ['   ', /Paste your TensorPool API token/],
  ['Bearer tp_abc123456789', /without the word "Bearer"/],
  ['short', /too short/],
  ['tok en with spaces', /cannot contain spaces/],
  ['line1\nline2line2', /line breaks/],
  ['abc\u0000defghij', /control characters/],
  ['x'.repeat(5000), /too long/],
];
const URLS: Array<[string, RegExp]> = [
  ['http://engine.tensorpool.dev', /Refusing plain http:\/\/ for engine\.tensorpool\.dev/],
  ['http://10.0.0.5:8750', /Refusing plain http:\/\/ for 10\.0\.0\.5/],
  ['http://192.168.1.20', /unencrypted/],
  ['ftp://127.0.0.1', /Unsupported scheme "ftp:"/],
  ['javascript:alert(1)', /Unsupported scheme "javascript:"/],
  ['not a url', /is not a URL/],
  ['https://user:pw@engine.tensorpool.dev', /user name or password/],
];

const VOLUME_SIZES: Array<[string, RegExp]> = [
  ['', /Enter the size in GB/],
  ['0', /at least 1 GB/],
  ['-1', /cannot be negative/],
  ['-100', /cannot be negative/],
  ['1.5', /whole number of GB/],
  ['0,5', /whole number of GB/],
  ['1000000000000', /more than the 100000 GB/],
  ['100001', /more than the 100000 GB/],
  ['1e12', /whole number of GB/],
  ['lots', /not a number/],
  ['100 GB', /not a number/],
  ['\u0663', /not a number/],
];

/** Job files (the editor's text when Run on Cluster… is used): refused before any request. */
const JOB_FILES: Array<[string, RegExp]> = [
  ['commands = [\n', /line 2: TOML syntax error: invalid value/],
  ['commands = "python train.py"', /`commands` must be an array of strings/],
  ['commands = [1, 2]', /entry 1 is a number/],
  ['commands = ["a"]\ncommands = ["b"]', /line 2: TOML syntax error: .*already defined/],
  ['outputs = 5\ncommands = ["x"]', /`outputs` must be an array of strings/],
  ['[[[', /TOML syntax error: illegal character/],
  ['commands = ["ok"]\nignore = [true]', /entry 1 is a boolean/],
  ['commands = ["a", ["b"]]', /entry 2 is an array/],
  ["commands = ['unterminated]", /TOML syntax error: unfinished string/],
];
/** The Add SSH Key paste box (besides the create wizard's key step, KEYS above). */
const KEY_PASTES: Array<[string, RegExp]> = [
  ['', /Paste an SSH public key/],
  [
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
    /PRIVATE key: it was not sent anywhere/,
  ],
  ['ssh-rsa AAAAB3NzaC1yc2E', /too short to be an SSH public key/],
  ['ssh-dss AAAAB3NzaC1kc3MAAACBAP', /too short to be an SSH public key/],
  ['ecdsa-sha2-nistp256 !!!!', /not an SSH public key/],
  [
    '---- BEGIN SSH2 PUBLIC KEY ----\nComment: x\nAAAAC3NzaC1lZDI1NTE5\n---- END SSH2 PUBLIC KEY ----',
    /single public key on one line/,
  ],
  ['AAAAC3NzaC1lZDI1NTE5AAAAIGx', /not an SSH public key/],
  ['k'.repeat(20_000), /not an SSH public key/],
];
const KEY_NAMES: Array<[string, RegExp]> = [
  ['   ', /Enter a name, or leave the box empty/],
  ['n'.repeat(129), /at most 128 characters/],
  ['two\nlines', /control characters or line breaks/],
  ['bell\u0007', /control characters or line breaks/],
];
/** A cluster ID typed into the Run on Cluster… pick. */
const CLUSTER_REFS: Array<[string, RegExp]> = [
  ['   ', /Enter a cluster ID/],
  ['has space', /no spaces or slashes/],
  ['../etc', /no spaces or slashes/],
  ['c-1;rm -rf ~', /no spaces or slashes/],
  ['c'.repeat(129), /too long for a cluster ID/],
];
/** Pull Outputs' folder box. */
const PULL_FOLDERS: Array<[string, RegExp]> = [
  ['outputs/job', /Enter an absolute folder path/],
  ['', /Enter an absolute folder path/],
];

const FIELDS: Array<[InputField, Array<[string, RegExp]>]> = [
  ['instanceType', INSTANCE],
  ['numNodes', NODES],
  ['name', NAMES],
  ['key', KEYS],
  ['container', IMAGES],
  ['editName', EDIT_NAMES],
  ['bucket', BUCKETS],
  ['token', TOKENS],
  ['apiUrl', URLS],
  ['volumeSize', VOLUME_SIZES],
  ['volumeName', NAMES], // volume names follow the cluster-name rules
  ['jobFile', JOB_FILES],
  ['keyPaste', KEY_PASTES],
  ['keyName', KEY_NAMES],
  ['clusterRef', CLUSTER_REFS],
  ['pullFolder', PULL_FOLDERS],
];

export const BAD_INPUTS: readonly BadInput[] = FIELDS.flatMap(([field, list]) =>
  list.map(([value, expect], i) => ({ id: `bad:${field}:${i}`, field, value, expect })),
);

export const badInputsFor = (field: InputField): BadInput[] => BAD_INPUTS.filter((b) => b.field === field);

/** Scripted answers that reach the wizard step of `field`, type the value, then leave (Escape, Discard when asked). */
export const WIZARD_SCRIPTS: Partial<Record<InputField, (v: string) => string[]>> = {
  instanceType: (v) => [v, ESCAPE],
  numNodes: (v) => ['1xH100', v, ESCAPE, 'Discard'],
  name: (v) => ['1xH100', ACCEPT, v, ESCAPE, 'Discard'],
  key: (v) => ['1xH100', ACCEPT, '', 'Paste a public key…', v, ESCAPE, 'Discard'],
  container: (v) => ['1xH100', ACCEPT, '', 'No new key', v, ESCAPE, 'Discard'],
  editName: (v) => [v, ESCAPE],
};

/** A value as it may be printed in a test title: control characters escaped, long values shortened. */
export function show(value: string): string {
  const json = JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}` : value).slice(1, -1);
  return value.length > 24 ? `"${json}…" (${value.length} chars)` : `"${json}"`;
}

// ---- secrets ------------------------------------------------------------------------------------

export interface Secret {
  /** What it is (printed in findings); never the value. */
  readonly name: string;
  readonly value: string;
}

/** Window length for partial matches: a 12-character piece of a secret is a leak too (a cut-off key). */
const LEAK_WINDOW = 12;

/**
 * Where in `text` any secret (or any 12-character piece of one) occurs. Findings name the secret and
 * the offset, never the matched text.
 */
export function findSecrets(text: string, secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  for (const s of secrets) {
    if (s.value.length < 8) continue;
    const w = Math.min(LEAK_WINDOW, s.value.length);
    for (let i = 0; i + w <= s.value.length; i++) {
      const at = text.indexOf(s.value.slice(i, i + w));
      if (at >= 0) {
        found.push(`${s.name} (${w} characters from offset ${i} of it) at position ${at}`);
        break;
      }
    }
  }
  return found;
}

// ---- object storage (S3) faults: test/reliability/node/s3Faults.test.ts --------------------------

/** Faults between the extension's S3 layer and the S3 server (a relay in front of the engine's s3rver). */
export const S3_FAULTS = {
  'drop-mid-part': 'the connection dropped in the middle of a multipart part',
  'part-500': '500 InternalError on a part (once, then on every try)',
  'commit-500': '500 on the multipart commit (never sent twice)',
  'rotated-403': '403 after the keys were rotated elsewhere',
  slow: 'a slow server (every answer delayed)',
  'drop-mid-download': 'the connection dropped in the middle of a download',
} as const;

export type S3Fault = keyof typeof S3_FAULTS;
export const s3FaultSubject = (k: S3Fault): string => `s3:${k}`;
