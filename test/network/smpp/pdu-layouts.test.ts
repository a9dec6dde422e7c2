import assert from 'node:assert/strict';
import { test } from 'node:test';
import smpp from 'smpp';
import '../../../src/network/smpp/codec.js';
import { packagePduMethods } from '../../../src/network/smpp/pdu-layouts.js';

// Importing codec.ts made every PDU encode and decode by the layouts; the package's own methods
// are kept aside, and each case here is done both ways and must come out the same.

type Fields = Record<string, unknown>;

const byPackage = {
  encode: (p: smpp.PDU): Buffer => packagePduMethods.toBuffer.call(p),
  decode: (buffer: Buffer): smpp.PDU => {
    const p = Object.create(smpp.PDU.prototype) as smpp.PDU;
    packagePduMethods.fromBuffer.call(p, buffer);
    return p;
  },
};
const byLayouts = {
  encode: (p: smpp.PDU): Buffer => p.toBuffer(),
  decode: (buffer: Buffer): smpp.PDU => new smpp.PDU(buffer),
};

/** A value of each plain field type, by the type's name in the package (read off its default). */
function sampleFor(command: string, key: string, param: smpp.ParamDefinition, seed: number): unknown {
  if (param.filter && (key === 'schedule_delivery_time' || key === 'validity_period' || key === 'final_date')) {
    return seed % 2 === 0 ? new Date(Date.UTC(2026, 10, 26, 1, 2, 3, 400)) : '261126010203004+';
  }
  const fallback = param.type.default;
  if (Buffer.isBuffer(fallback)) return Buffer.from(`${command}:${key}`);
  if (typeof fallback === 'number') return (seed * 37 + key.length) % 200;
  if (typeof fallback === 'string') return `${key.slice(0, 6)}${seed}`;
  return undefined;
}

function fieldsFor(command: string, seed: number): Fields {
  const fields: Fields = { sequence_number: 1000 + seed };
  for (const [key, param] of Object.entries(smpp.commands[command]!.params ?? {})) {
    const value = sampleFor(command, key, param, seed);
    if (value !== undefined) fields[key] = value;
  }
  return fields;
}

const TLVS: Fields[] = [
  {},
  { receipted_message_id: 'a1b2c3', message_state: 2, network_error_code: Buffer.from([3, 0, 1]) },
  { sar_msg_ref_num: 513, sar_total_segments: 3, sar_segment_seqnum: 2, user_message_reference: 77 },
  { message_payload: Buffer.from('a long text in the payload'), source_port: 9200, dest_port: 2948 },
  { callback_num_pres_ind: [1, 2], callback_num: [{ digit_mode: 0, ton: 1, npi: 1, number: '4179' }] },
];

/** A PDU of this command built the package's way, to encode the package's way. */
const packagePdu = (command: string, fields: Fields): smpp.PDU => new smpp.PDU(command, fields);

function ownFields(p: smpp.PDU): Fields {
  return Object.fromEntries(Object.entries(p));
}

const commands = Object.keys(smpp.commands);

test('every command encodes to the same bytes, and decodes to the same fields, as with the package', () => {
  let compared = 0;
  for (const command of commands) {
    for (const [i, tlvs] of TLVS.entries()) {
      const fields = { ...fieldsFor(command, i), ...tlvs };
      let theirs: Buffer;
      try {
        theirs = byPackage.encode(packagePdu(command, fields));
      } catch {
        // The package cannot encode every sample (array-typed parameters, for one): then neither may we.
        assert.throws(() => byLayouts.encode(packagePdu(command, fields)), `${command} #${i}`);
        continue;
      }
      const ourPdu = packagePdu(command, fields);
      const ours = byLayouts.encode(ourPdu);
      assert.deepEqual(ours, theirs, `${command} #${i}: bytes`);
      // The filters change the PDU in place; they must leave it the same.
      const theirPdu = packagePdu(command, fields);
      byPackage.encode(theirPdu);
      assert.deepEqual(ownFields(ourPdu), ownFields(theirPdu), `${command} #${i}: the PDU after encoding`);
      assert.deepEqual(ownFields(byLayouts.decode(theirs)), ownFields(byPackage.decode(theirs)), `${command} #${i}: decoded`);
      compared++;
    }
  }
  assert.ok(compared > commands.length * 3, `compared ${compared}`);
});

test('unusual input decodes as with the package: error responses, short bodies, unknown TLVs and commands', () => {
  const submit = byPackage.encode(packagePdu('submit_sm', { ...fieldsFor('submit_sm', 2), receipted_message_id: 'x1' }));
  const withUnknownTlv = Buffer.concat([submit, Buffer.from([0x14, 0x00, 0x00, 0x02, 0xab, 0xcd])]);
  withUnknownTlv.writeUInt32BE(withUnknownTlv.length, 0);
  const cutShort = Buffer.from(submit.subarray(0, 30));
  cutShort.writeUInt32BE(30, 0);
  const unknownCommand = Buffer.from(submit);
  unknownCommand.writeUInt32BE(0x00000777, 4);
  const errorResponse = byPackage.encode(packagePdu('submit_sm_resp', { command_status: 0x45, sequence_number: 3 }));
  const failedBroadcast = byPackage.encode(packagePdu('broadcast_sm_resp', { message_id: 'b1', broadcast_area_identifier: ['Zurich'] }));
  for (const [name, buffer] of Object.entries({ withUnknownTlv, cutShort, unknownCommand, errorResponse, failedBroadcast })) {
    assert.deepEqual(ownFields(byLayouts.decode(buffer)), ownFields(byPackage.decode(buffer)), name);
  }
  assert.equal(byLayouts.decode(unknownCommand).command, 'unknown');
  assert.deepEqual(byLayouts.encode(packagePdu('submit_sm_resp', { command_status: 0x45, sequence_number: 3 })), errorResponse);

  const tooLong = Buffer.from(submit);
  tooLong.writeUInt32BE(smpp.PDU.maxLength + 1, 0);
  assert.throws(() => byPackage.decode(tooLong), /PDU length was too large/);
  assert.throws(() => byLayouts.decode(tooLong), /PDU length was too large \(16385, maximum is 16384\)\./);
});
