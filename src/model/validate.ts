/**
 * Input rules shared by the API client's request schemas and the VS Code wizards.
 *
 * Each validator returns `undefined` when the value is acceptable, otherwise one specific sentence
 * that tells the user what is wrong and how to fix it. They are plain functions (no zod, no vscode)
 * so the activation bundle can validate as the user types without loading the API layer.
 */
import * as l10n from '@vscode/l10n';

export type Validator<T = string> = (value: T) => string | undefined;

/** Instance types seen in the service's docs (the local engine offers the same list by default, see
 *  engine/offered.ts); the shape `<count>x<model>` is the contract. */
export const KNOWN_INSTANCE_TYPES: readonly string[] = [
  '1xH100',
  '2xH100',
  '4xH100',
  '8xH100',
  '1xH200',
  '2xH200',
  '4xH200',
  '8xH200',
  '1xB200',
  '2xB200',
  '4xB200',
  '8xB200',
  '1xB300',
  '2xB300',
  '4xB300',
  '8xB300',
  '1xL40S',
  '32xCPU',
  '64xCPU',
];

/** Largest node count the extension will send; far above any real order, far below a typo like 10^9. */
export const MAX_NODES = 512;
const MAX_CLUSTER_NAME_LENGTH = 64;
const MAX_IMAGE_LENGTH = 512;

// ASCII digits only: `[0-9]` never matches other scripts' digits such as `٣`.
const INSTANCE_TYPE = /^([1-9][0-9]{0,3})x([A-Za-z][A-Za-z0-9]{0,31})$/;
// Any C0/C1 control character, DEL, or Unicode line/paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

export const validateInstanceType: Validator = (value) => {
  if (value.trim() === '') return l10n.t('Enter an instance type such as 8xH100.');
  if (value !== value.trim()) return l10n.t('Remove the spaces around the instance type.');
  if (/\s/.test(value))
    return l10n.t('"{0}" contains spaces; write it as <count>x<model>, for example 8xH100.', shorten(value));
  if (!INSTANCE_TYPE.test(value)) {
    if (/^x/i.test(value))
      return l10n.t('The instance type needs a GPU count before the "x", for example 8xH100.');
    if (/^[0-9]+x$/.test(value))
      return l10n.t('The instance type needs a GPU model after the "x", for example 8xH100.');
    if (/[^\x20-\x7e]/.test(value)) return l10n.t('Use plain ASCII digits and letters, for example 8xH100.');
    return l10n.t(
      '"{0}" is not an instance type; the shape is <count>x<model>, for example 8xH100 or 1xL40S.',
      shorten(value),
    );
  }
  return undefined;
};

/** Node count as typed in an input box (a string) or as a number from code. */
export const validateNumNodes: Validator<string | number> = (value) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (text === '') return l10n.t('Enter the number of nodes (a whole number, at least 1).');
  if (!/^[0-9]+$/.test(text)) {
    if (/^-/.test(text)) return l10n.t('The number of nodes cannot be negative; enter 1 or more.');
    if (/^[0-9]*[.,][0-9]+$/.test(text))
      return l10n.t('The number of nodes must be a whole number, such as 1 or 2.');
    return l10n.t('"{0}" is not a number; enter a whole number of nodes such as 1 or 2.', shorten(text));
  }
  const n = Number(text);
  if (n < 1) return l10n.t('A cluster needs at least 1 node.');
  if (n > MAX_NODES)
    return l10n.t(
      '{0} nodes is more than the {1} this extension will request; check the number.',
      text,
      MAX_NODES,
    );
  return undefined;
};

/** Cluster names travel in URL paths (`/cluster/edit/{cluster}`), so they stay in a safe alphabet. */
export const validateClusterName: Validator = (value) => nameProblem(value, 'cluster');

/** The cluster-name rules, worded for a cluster's or a volume's name (one message per sentence). */
export function nameProblem(value: string, kind: 'cluster' | 'volume'): string | undefined {
  const volume = kind === 'volume';
  if (value.trim() === '')
    return volume ? l10n.t('The volume name cannot be empty.') : l10n.t('The cluster name cannot be empty.');
  if (hasControlCharacters(value))
    return volume
      ? l10n.t('The volume name contains control characters; use letters, digits, "-", "_" or ".".')
      : l10n.t('The cluster name contains control characters; use letters, digits, "-", "_" or ".".');
  if (value.length > MAX_CLUSTER_NAME_LENGTH) {
    const [length, max] = [value.length, MAX_CLUSTER_NAME_LENGTH];
    return volume
      ? l10n.t('The volume name is {0} characters long; use at most {1}.', length, max)
      : l10n.t('The cluster name is {0} characters long; use at most {1}.', length, max);
  }
  if (value !== value.trim()) return l10n.t('Remove the spaces at the start or end of the name.');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) {
    return volume
      ? l10n.t('Use letters, digits, "-", "_" or "." in the volume name, starting with a letter or digit.')
      : l10n.t('Use letters, digits, "-", "_" or "." in the cluster name, starting with a letter or digit.');
  }
  return undefined;
}

const PUBLIC_KEY =
  /^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) ([A-Za-z0-9+/]+={0,3})( [^\r\n]*)?$/;

export const validatePublicKey: Validator = (value) => {
  const key = value.trim();
  if (key === '') return l10n.t('Paste an SSH public key (the contents of a .pub file).');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key) || /PRIVATE KEY/.test(key)) {
    return l10n.t(
      'This is a PRIVATE key: never share it. Paste the public key instead (the .pub file, starting with "ssh-ed25519" or "ssh-rsa").',
    );
  }
  if (/[\r\n]/.test(key)) return l10n.t('Paste a single public key on one line.');
  const m = PUBLIC_KEY.exec(key);
  if (!m)
    return l10n.t(
      'This is not an SSH public key; it should start with "ssh-ed25519", "ssh-rsa" or "ecdsa-sha2-…" followed by the key.',
    );
  if (m[3].length < 40)
    return l10n.t(
      'The key data is too short to be an SSH public key; paste the whole line from the .pub file.',
    );
  return undefined;
};

// A container image reference: [registry[:port]/]path[:tag][@digest], no spaces.
const IMAGE =
  /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-]{1,2}[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;

export const validateContainerImage: Validator = (value) => {
  if (value.trim() === '')
    return l10n.t('Enter a container image, or leave the step empty to use the default image.');
  if (/\s/.test(value))
    return l10n.t(
      'A container image reference cannot contain spaces (for example nvcr.io/nvidia/pytorch:24.05-py3).',
    );
  if (value.length > MAX_IMAGE_LENGTH)
    return l10n.t(
      'The image reference is {0} characters long; use at most {1}.',
      value.length,
      MAX_IMAGE_LENGTH,
    );
  if (!IMAGE.test(value)) {
    return l10n.t(
      '"{0}" is not a valid image reference; use lowercase registry/name[:tag], for example nvcr.io/nvidia/pytorch:24.05-py3.',
      shorten(value),
    );
  }
  return undefined;
};

export const validateApiToken: Validator = (value) => {
  if (value.trim() === '') return l10n.t('Paste your TensorPool API token.');
  if (/^bearer\s/i.test(value.trim())) return l10n.t('Paste only the token, without the word "Bearer".');
  if (/\s/.test(value.trim()))
    return l10n.t('The token cannot contain spaces or line breaks; copy it again from the dashboard.');
  if (hasControlCharacters(value))
    return l10n.t('The token contains control characters; copy it again from the dashboard.');
  if (value.trim().length < 8)
    return l10n.t('That is too short to be a TensorPool API token; copy the whole token.');
  if (value.trim().length > 4096) return l10n.t('That is too long to be a TensorPool API token.');
  return undefined;
};

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_HOSTS.has(hostname.toLowerCase())) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** https anywhere; plain http only for loopback hosts (the local engine). */
export const validateApiUrl: Validator = (value) => {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return l10n.t(
      '"{0}" is not a URL; use https://engine.tensorpool.dev or the URL of your TensorPool endpoint.',
      shorten(value),
    );
  }
  if (url.protocol === 'https:')
    return url.username || url.password
      ? l10n.t('Do not put a user name or password in the API URL.')
      : undefined;
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return undefined;
    return l10n.t(
      'Refusing plain http:// for {0}: the API token would travel unencrypted. Use https://, or http:// only for a local engine on 127.0.0.1.',
      url.hostname,
    );
  }
  return l10n.t('Unsupported scheme "{0}" in the API URL; use https://.', url.protocol);
};

// S3 bucket naming rules (AWS general purpose buckets).
export const validateBucketName: Validator = (value) => {
  if (value === '') return l10n.t('Enter a bucket name.');
  if (value.length < 3 || value.length > 63)
    return l10n.t('A bucket name has 3 to 63 characters; this one has {0}.', value.length);
  if (!/^[a-z0-9.-]+$/.test(value))
    return l10n.t('Bucket names use only lowercase letters, digits, "." and "-".');
  if (!/^[a-z0-9]/.test(value) || !/[a-z0-9]$/.test(value))
    return l10n.t('A bucket name must start and end with a letter or digit.');
  if (value.includes('..')) return l10n.t('A bucket name cannot contain two dots in a row.');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return l10n.t('A bucket name cannot look like an IP address.');
  if (/^xn--|^sthree-|^amzn-s3-demo-/.test(value))
    return l10n.t('A bucket name cannot start with "xn--", "sthree-" or "amzn-s3-demo-".');
  if (/-s3alias$|--ol-s3$|\.mrap$|--x-s3$|--table-s3$/.test(value))
    return l10n.t('A bucket name cannot end with a reserved suffix such as "-s3alias".');
  return undefined;
};

function shorten(value: string, max = 40): string {
  const printable = value.replace(CONTROL, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

/** A cluster id (or name) typed by hand, as the service spells them: no spaces or slashes, at most 128. */
export const validateClusterRef: Validator = (text) => {
  const t = text.trim();
  if (t === '') return l10n.t('Enter a cluster ID (or name).');
  if (t.length > 128) return l10n.t('That is too long for a cluster ID.');
  if (!/^[\w][\w.:-]*$/.test(t)) return l10n.t('A cluster ID has no spaces or slashes (e.g. c-1a2b3c).');
  return undefined;
};
