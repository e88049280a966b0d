import { describe, expect, it } from 'vitest';
import { AssetParams } from '../../../main/http/input/renderer-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';

describe('the window files request schema (http/input/renderer-input.ts)', () => {
  it('reads the asset asked for, never refusing (a name that is no asset is a 404 of the file)', () => {
    expect(requestInput(AssetParams, { '*': 'index-abc.js' })).toEqual({ '*': 'index-abc.js' });
    expect(requestInput(AssetParams, {})).toEqual({ '*': '' });
  });
});
