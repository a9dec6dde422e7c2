import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR, STATUS, ref, type ErrorName, type StatusName } from '../../../src/core/pipeline/statuses.js';
import { STATUS as SMPP } from '../../../src/network/smpp/codec.js';
import { mapReceiptState, mapSubmitStatus } from '../../../src/network/smpp/status-mapping.js';

const mapped = (status: StatusName, error: ErrorName, final: boolean) => ({ status: ref(STATUS[status]), errorId: ERROR[error].id, final });

describe('receipt stat mapping', () => {
  const rows: Array<[string, StatusName, ErrorName, boolean]> = [
    ['DELIVRD', 'DELIVERED_TO_HANDSET', 'NO_ERROR', true],
    ['ACCEPTD', 'PENDING_ACCEPTED', 'NO_ERROR', false],
    ['ENROUTE', 'PENDING_ENROUTE', 'NO_ERROR', false],
    ['SCHEDULED', 'PENDING_ENROUTE', 'NO_ERROR', false],
    ['EXPIRED', 'EXPIRED_EXPIRED', 'EC_MESSAGE_EXPIRED', true],
    ['UNDELIV', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_SM_DELIVERY_FAILURE', true],
    ['DELETED', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_MESSAGE_CANCELED', true],
    ['REJECTD', 'UNDELIVERABLE_REJECTED_OPERATOR', 'EC_SMS_REJECTED_BY_MOBILE_OPERATOR', true],
    ['UNKNOWN', 'EXPIRED_DLR_UNKNOWN', 'EC_UNKNOWN_ERROR', true],
    ['SKIPPED', 'UNDELIVERABLE_NOT_SENT', 'EC_NOTSUBMITTEDTOSMPPCHANNEL', true],
    ['WHATEVER', 'UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_ERROR', true],
  ];
  for (const [stat, status, error, final] of rows) {
    it(`maps ${stat} without an error code to ${status} / ${error}`, () => {
      assert.deepEqual(mapReceiptState(stat, undefined), mapped(status, error, final));
      assert.deepEqual(mapReceiptState(stat, '000'), mapped(status, error, final), 'err 000 is no error code');
    });
  }

  it('reads stat in any case', () => {
    assert.deepEqual(mapReceiptState('delivrd', '000'), mapped('DELIVERED_TO_HANDSET', 'NO_ERROR', true));
    assert.deepEqual(mapReceiptState(' Undeliv ', undefined), mapped('UNDELIVERABLE_NOT_DELIVERED', 'EC_SM_DELIVERY_FAILURE', true));
  });
});

describe('receipt err mapping', () => {
  it('turns a GSM MAP error code Infobip lists as a handset error into that error', () => {
    const codes: Array<[string, ErrorName]> = [
      ['001', 'EC_UNKNOWN_SUBSCRIBER'],
      ['6', 'EC_ABSENT_SUBSCRIBER_SM'],
      ['027', 'EC_ABSENT_SUBSCRIBER'],
      ['031', 'EC_SUBSCRIBER_BUSY_FOR_MT_SMS'],
      ['032', 'EC_SM_DELIVERY_FAILURE'],
      ['034', 'EC_SYSTEM_FAILURE'],
      ['256', 'EC_SM_DF_MEMORYCAPACITYEXCEEDED'],
      ['1025', 'EC_OR_INVALIDDESTINATIONREFERENCE'],
    ];
    for (const [err, error] of codes) {
      assert.deepEqual(mapReceiptState('UNDELIV', err), mapped('UNDELIVERABLE_NOT_DELIVERED', error, true), err);
    }
    assert.deepEqual(mapReceiptState('REJECTD', '013'), mapped('UNDELIVERABLE_REJECTED_OPERATOR', 'EC_CALL_BARRED', true));
    assert.deepEqual(mapReceiptState('UNKNOWN', '008'), mapped('EXPIRED_DLR_UNKNOWN', 'EC_ROAMING_NOT_ALLOWED', true));
  });

  it('turns any other non-zero code into EC_UNKNOWN_ERROR', () => {
    for (const err of ['999', '003', '351', '0x1F', 'ABC']) {
      assert.deepEqual(mapReceiptState('UNDELIV', err), mapped('UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_ERROR', true), err);
    }
    assert.deepEqual(mapReceiptState('DELETED', '999'), mapped('UNDELIVERABLE_NOT_DELIVERED', 'EC_UNKNOWN_ERROR', true));
  });

  it('keeps EC_MESSAGE_EXPIRED for an expiry unless err names a handset error', () => {
    assert.deepEqual(mapReceiptState('EXPIRED', '999'), mapped('EXPIRED_EXPIRED', 'EC_MESSAGE_EXPIRED', true));
    assert.deepEqual(mapReceiptState('EXPIRED', '027'), mapped('EXPIRED_EXPIRED', 'EC_ABSENT_SUBSCRIBER', true));
  });

  it('ignores err on delivered and pending states', () => {
    assert.deepEqual(mapReceiptState('DELIVRD', '001'), mapped('DELIVERED_TO_HANDSET', 'NO_ERROR', true));
    assert.deepEqual(mapReceiptState('ENROUTE', '027'), mapped('PENDING_ENROUTE', 'NO_ERROR', false));
    assert.deepEqual(mapReceiptState('ACCEPTD', '999'), mapped('PENDING_ACCEPTED', 'NO_ERROR', false));
  });
});

describe('submit_sm_resp command_status mapping', () => {
  it('maps ESME_ROK to ok', () => {
    assert.deepEqual(mapSubmitStatus(SMPP.ESME_ROK), { kind: 'ok' });
  });

  it('maps throttling and a full queue to throttled', () => {
    for (const code of [SMPP.ESME_RTHROTTLED, SMPP.ESME_RMSGQFUL]) assert.deepEqual(mapSubmitStatus(code), { kind: 'throttled' });
  });

  it('maps temporary failures to retry', () => {
    for (const code of [SMPP.ESME_RSYSERR, SMPP.ESME_RSUBMITFAIL, SMPP.ESME_RX_P_APPN, SMPP.ESME_RINVBNDSTS, SMPP.ESME_RUNKNOWNERR]) {
      assert.deepEqual(mapSubmitStatus(code), { kind: 'retry' }, `0x${code.toString(16)}`);
    }
  });

  const refusals: Array<[string, number[], StatusName, ErrorName]> = [
    ['destination', [SMPP.ESME_RINVDSTADR, SMPP.ESME_RINVDSTTON, SMPP.ESME_RINVDSTNPI], 'REJECTED_DESTINATION', 'EC_INVALID_DESTINATION_ADDRESS'],
    ['source', [SMPP.ESME_RINVSRCADR, SMPP.ESME_RINVSRCTON, SMPP.ESME_RINVSRCNPI], 'REJECTED_SOURCE', 'EC_INVALID_SOURCE_ADDRESS'],
    ['length', [SMPP.ESME_RINVMSGLEN], 'REJECTED_MESSAGE_TOO_LONG', 'EC_MSG_TEXT_TOO_LONG'],
    [
      'PDU format',
      [SMPP.ESME_RINVESMCLASS, SMPP.ESME_RINVDCS, SMPP.ESME_RINVPARLEN, SMPP.ESME_RINVOPTPARSTREAM, SMPP.ESME_ROPTPARNOTALLWD, SMPP.ESME_RINVCMDLEN],
      'REJECTED_SYSTEM_ERROR',
      'EC_INVALID_PDU_FORMAT',
    ],
    ['operator', [SMPP.ESME_RX_R_APPN, SMPP.ESME_RX_T_APPN, SMPP.ESME_RINVSCHED, 0x4f2], 'UNDELIVERABLE_REJECTED_OPERATOR', 'EC_SMS_REJECTED_BY_MOBILE_OPERATOR'],
  ];
  for (const [what, codes, status, error] of refusals) {
    it(`refuses for good on ${what} errors with ${status} / ${error}`, () => {
      for (const code of codes) {
        assert.deepEqual(mapSubmitStatus(code), { kind: 'refused', status: ref(STATUS[status]), errorId: ERROR[error].id }, `0x${code.toString(16)}`);
      }
    });
  }
});
