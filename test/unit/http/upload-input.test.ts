import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { CarImportPinQuery, StepTwoAddressQuery, UploadCancelQuery, UploadSizeQuery } from '../../../main/http/input/upload-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

describe('upload request schemas (http/input/upload-input.ts)', () => {
  it("a step 1's size: an integer of at most 15 digits", () => {
    expect(requestInput(UploadSizeQuery, { size: '0' })).toEqual({ size: 0 });
    expect(requestInput(UploadSizeQuery, { size: '999999999999999' })).toEqual({ size: 999_999_999_999_999 });
    for (const size of [undefined, '', '-1', '1.5', '1e3', '1000000000000000', ['1', '2']])
      expect(
        refusalOf(() => requestInput(UploadSizeQuery, { size })),
        String(size),
      ).toEqual({
        message: 'size is required: the payload size in bytes (integer)',
        param: 'size',
      });
  });

  it("a CAR import's pin-roots: anything but false pins", () => {
    expect(requestInput(CarImportPinQuery, {})).toEqual({ 'pin-roots': true });
    expect(requestInput(CarImportPinQuery, { 'pin-roots': 'true' })).toEqual({ 'pin-roots': true });
    expect(requestInput(CarImportPinQuery, { 'pin-roots': 'no' })).toEqual({ 'pin-roots': true });
    expect(requestInput(CarImportPinQuery, { 'pin-roots': 'false' })).toEqual({ 'pin-roots': false });
  });

  it("a step 2's address never refuses (its absence is the address check's 401); a cancel's is required", () => {
    expect(requestInput(StepTwoAddressQuery, { sargs: 'a', ssig: 'b' })).toEqual({ sargs: 'a', ssig: 'b' });
    expect(requestInput(StepTwoAddressQuery, { sargs: ['a', 'b'] })).toEqual({ sargs: undefined, ssig: undefined });
    expect(requestInput(UploadCancelQuery, { sargs: 'a', ssig: 'b' })).toEqual({ sargs: 'a', ssig: 'b' });
    const message = 'sargs and ssig are required: the upload address to cancel';
    expect(refusalOf(() => requestInput(UploadCancelQuery, {}))).toEqual({ message, param: 'sargs' });
    expect(refusalOf(() => requestInput(UploadCancelQuery, { sargs: 'a' }))).toEqual({ message, param: 'ssig' });
    expect(refusalOf(() => requestInput(UploadCancelQuery, { sargs: 'a', ssig: ['b', 'c'] }))).toEqual({ message, param: 'ssig' });
  });
});
