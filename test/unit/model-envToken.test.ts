/** The API token from the environment: TENSORPOOL_KEY or TENSORPOOL_API_KEY, the first winning when both
 *  are set; blank values do not count. The redactor hides both names' values. */
import * as assert from 'node:assert/strict';
import { SecretRegistry } from '../../src/api/redact';
import { tokenFromEnvironment } from '../../src/model/envToken';

const T = 'tp_abcdef0123456789';

describe('the token from the environment', () => {
  it('reads TENSORPOOL_KEY', () => {
    assert.deepEqual(tokenFromEnvironment({ TENSORPOOL_KEY: T }), { name: 'TENSORPOOL_KEY', value: T });
  });
  it('accepts TENSORPOOL_API_KEY', () => {
    assert.deepEqual(tokenFromEnvironment({ PATH: '/bin', TENSORPOOL_API_KEY: ` ${T}\n` }), {
      name: 'TENSORPOOL_API_KEY',
      value: T,
    });
  });
  it('TENSORPOOL_KEY wins when both are set', () => {
    assert.deepEqual(tokenFromEnvironment({ TENSORPOOL_API_KEY: 'tp_other', TENSORPOOL_KEY: T }), {
      name: 'TENSORPOOL_KEY',
      value: T,
    });
  });
  it('a blank TENSORPOOL_KEY falls through; none set gives nothing', () => {
    assert.equal(
      tokenFromEnvironment({ TENSORPOOL_KEY: '  ', TENSORPOOL_API_KEY: T })?.name,
      'TENSORPOOL_API_KEY',
    );
    assert.equal(tokenFromEnvironment({}), undefined);
  });
  it('the redactor hides a TENSORPOOL_API_KEY value as it hides TENSORPOOL_KEY', () => {
    for (const name of ['TENSORPOOL_KEY', 'TENSORPOOL_API_KEY']) {
      assert.ok(!new SecretRegistry().redact(`${name}=${T}`).includes(T), name);
      assert.ok(!new SecretRegistry().redact(`{"${name}": "${T}"}`).includes(T), name);
    }
  });
});
