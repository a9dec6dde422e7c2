import { NPI, TON } from './codec.js';
import type { AddressOverride } from './smsc-options.js';

export interface SmppAddress {
  addr: string;
  ton: number;
  npi: number;
}

/**
 * TON/NPI for a sender as most SMSCs expect them: a name (any letter) is alphanumeric (5/0); a
 * number of 9 or more digits is international (1/1, without '+'); a shorter one is a short code,
 * sent as network-specific (3/0)… unless the SMSC is given fixed values (`sourceTon`/`sourceNpi`).
 */
export function sourceAddress(sender: string | undefined, override: AddressOverride): SmppAddress {
  const address = automaticSource(sender ?? '');
  return applyOverride(address, override);
}

/** Destinations are international numbers (1/1, without '+') unless the SMSC is told otherwise. */
export function destinationAddress(destination: string, override: AddressOverride): SmppAddress {
  return applyOverride({ addr: destination.replace(/^\+/, ''), ton: TON.INTERNATIONAL, npi: NPI.ISDN }, override);
}

function automaticSource(sender: string): SmppAddress {
  if (sender === '') return { addr: '', ton: TON.UNKNOWN, npi: NPI.UNKNOWN };
  const digits = sender.replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return { addr: sender, ton: TON.ALPHANUMERIC, npi: NPI.UNKNOWN };
  if (digits.length >= 9) return { addr: digits, ton: TON.INTERNATIONAL, npi: NPI.ISDN };
  return { addr: digits, ton: TON.NETWORK_SPECIFIC, npi: NPI.UNKNOWN };
}

function applyOverride(address: SmppAddress, override: AddressOverride): SmppAddress {
  if (override.ton !== undefined) address.ton = override.ton;
  if (override.npi !== undefined) address.npi = override.npi;
  return address;
}
