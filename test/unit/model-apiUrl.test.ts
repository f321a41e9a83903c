/** Which base URL is used: the setting at any level, else TENSORPOOL_ENGINE, else the default. */
import * as assert from 'node:assert/strict';
import { DEFAULT_API_URL, pickApiUrl } from '../../src/model/apiUrl';

describe('API base URL', () => {
  const env = { TENSORPOOL_ENGINE: ' http://127.0.0.1:8750 ' };

  it('TENSORPOOL_ENGINE when no settings level has a value (the default value does not count)', () => {
    assert.deepEqual(pickApiUrl({ defaultValue: DEFAULT_API_URL }, env), {
      url: 'http://127.0.0.1:8750',
      source: 'TENSORPOOL_ENGINE',
    });
    assert.deepEqual(pickApiUrl(undefined, env).source, 'TENSORPOOL_ENGINE');
  });

  it('the setting wins at any level, including the local and remote user levels of a remote window', () => {
    for (const level of [
      'globalValue',
      'globalLocalValue',
      'globalRemoteValue',
      'workspaceValue',
      'workspaceFolderValue',
    ]) {
      assert.deepEqual(pickApiUrl({ [level]: 'https://eu.example.dev' }, env), {
        url: 'https://eu.example.dev',
        source: 'setting',
      });
    }
  });

  it('an empty setting or variable is not set; nothing set gives the default', () => {
    assert.deepEqual(pickApiUrl({ globalValue: '  ' }, { TENSORPOOL_ENGINE: '' }), {
      url: DEFAULT_API_URL,
      source: 'default',
    });
  });
});
