/**
 * The one rule for showing a secret to the user: four stars and the last four characters from
 * eight characters on, nothing of a shorter value; previews mask by key name.
 */
import * as assert from 'node:assert/strict';
import { displayValue, isSecretKey } from '../../src/config/mask';
import { maskSecret } from '../../src/model/mask';

describe('secret masking', () => {
  it('shows the last four characters of a value of eight characters or more', () => {
    assert.equal(maskSecret('abcdefgh'), '****efgh');
    assert.equal(maskSecret('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'), '****EKEY');
  });

  it('shows nothing of a value shorter than eight characters, the empty one included', () => {
    assert.equal(maskSecret('abcdefg'), '****');
    assert.equal(maskSecret('abc'), '****');
    assert.equal(maskSecret(''), '****');
  });

  it('does not reveal the length of a long secret', () => {
    assert.equal(maskSecret('x'.repeat(12) + 'WXYZ').length, maskSecret('x'.repeat(200) + 'WXYZ').length);
  });

  it('previews mask the values of secret-looking keys and show the others as they are', () => {
    const secret = 'tp_9f8e7d6c5b4a3210';
    for (const key of ['aws_secret_access_key', 'secret_access_key', 'AWS_SESSION_TOKEN', 'password']) {
      assert.ok(isSecretKey(key), key);
      assert.equal(displayValue(key, secret), '****3210', key);
    }
    for (const key of ['aws_access_key_id', 'endpoint_url', 'region']) {
      assert.ok(!isSecretKey(key), key);
      assert.equal(displayValue(key, secret), secret, key);
    }
  });
});
