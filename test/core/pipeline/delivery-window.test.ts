import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isWindowOpen, nextWindowOpening } from '../../../src/core/pipeline/delivery-window.js';
import type { DeliveryWindow } from '../../../src/core/store/types.js';

// 2025-01-06 is a Monday.
const at = (day: number, hour: number, minute = 0, second = 0): number => Date.UTC(2025, 0, day, hour, minute, second);
const MON = 6;
const TUE = 7;
const WED = 8;
const FRI = 10;
const SAT = 11;
const SUN = 12;
const NEXT_MON = 13;

const WORKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'];
const nineToFive: DeliveryWindow = { days: WORKDAYS, from: { hour: 9, minute: 0 }, to: { hour: 17, minute: 0 } };

describe('nextWindowOpening', () => {
  it('returns the same instant inside the window', () => {
    assert.equal(nextWindowOpening(nineToFive, at(MON, 12, 30)), at(MON, 12, 30));
  });

  it('opens at `from` exactly and is closed at `to` exactly', () => {
    assert.equal(nextWindowOpening(nineToFive, at(TUE, 9)), at(TUE, 9));
    assert.equal(nextWindowOpening(nineToFive, at(TUE, 17)), at(WED, 9));
    assert.equal(nextWindowOpening(nineToFive, at(TUE, 16, 59, 59)), at(TUE, 16, 59, 59));
  });

  it('waits for today\'s opening when before it', () => {
    assert.equal(nextWindowOpening(nineToFive, at(WED, 3, 15)), at(WED, 9));
  });

  it('skips days that are not listed', () => {
    assert.equal(nextWindowOpening(nineToFive, at(FRI, 18)), at(NEXT_MON, 9));
    assert.equal(nextWindowOpening(nineToFive, at(SAT, 10)), at(NEXT_MON, 9));
  });

  it('honours minutes in from and to', () => {
    const window: DeliveryWindow = { days: ['MONDAY'], from: { hour: 8, minute: 45 }, to: { hour: 9, minute: 15 } };
    assert.equal(nextWindowOpening(window, at(MON, 8, 44)), at(MON, 8, 45));
    assert.equal(nextWindowOpening(window, at(MON, 9, 14)), at(MON, 9, 14));
    assert.equal(nextWindowOpening(window, at(MON, 9, 15)), at(NEXT_MON, 8, 45));
  });

  it('without times, a listed day is open all day', () => {
    const weekend: DeliveryWindow = { days: ['SATURDAY', 'SUNDAY'] };
    assert.equal(nextWindowOpening(weekend, at(SUN, 23, 59, 59)), at(SUN, 23, 59, 59));
    assert.equal(nextWindowOpening(weekend, at(MON, 0)), at(SAT, 0));
    assert.equal(nextWindowOpening(weekend, at(FRI, 23, 30)), at(SAT, 0));
  });

  it('a single listed day reopens a week later', () => {
    const mondays: DeliveryWindow = { days: ['MONDAY'], from: { hour: 10, minute: 0 }, to: { hour: 11, minute: 0 } };
    assert.equal(nextWindowOpening(mondays, at(MON, 11)), at(NEXT_MON, 10));
  });

  describe('a window spanning midnight (from after to)', () => {
    const nights: DeliveryWindow = { days: ['FRIDAY'], from: { hour: 22, minute: 0 }, to: { hour: 6, minute: 0 } };

    it('is open from the listed day\'s evening into the next morning', () => {
      assert.equal(nextWindowOpening(nights, at(FRI, 23)), at(FRI, 23));
      assert.equal(nextWindowOpening(nights, at(SAT, 5, 59)), at(SAT, 5, 59));
    });

    it('closes at `to` on the following day', () => {
      assert.equal(nextWindowOpening(nights, at(SAT, 6)), at(FRI + 7, 22));
    });

    it('belongs to the day it opens on: the listed day\'s early morning is closed', () => {
      assert.equal(nextWindowOpening(nights, at(FRI, 2)), at(FRI, 22));
    });

    it('`to` at 00:00 means until midnight', () => {
      const lateEvening: DeliveryWindow = { days: ['MONDAY'], from: { hour: 20, minute: 0 }, to: { hour: 0, minute: 0 } };
      assert.equal(nextWindowOpening(lateEvening, at(MON, 23, 59)), at(MON, 23, 59));
      assert.equal(nextWindowOpening(lateEvening, at(TUE, 0)), at(NEXT_MON, 20));
    });

    it('Sunday night continues into Monday across the week boundary', () => {
      const sundayNight: DeliveryWindow = { days: ['SUNDAY'], from: { hour: 23, minute: 0 }, to: { hour: 1, minute: 0 } };
      assert.equal(nextWindowOpening(sundayNight, at(NEXT_MON, 0, 30)), at(NEXT_MON, 0, 30));
      assert.equal(nextWindowOpening(sundayNight, at(NEXT_MON, 1)), at(SUN + 7, 23));
    });
  });

  it('from equal to to is 24 hours from `from`', () => {
    const window: DeliveryWindow = { days: ['TUESDAY'], from: { hour: 7, minute: 0 }, to: { hour: 7, minute: 0 } };
    assert.equal(nextWindowOpening(window, at(TUE, 3)), at(TUE, 7));
    assert.equal(nextWindowOpening(window, at(WED, 6, 59)), at(WED, 6, 59));
    assert.equal(nextWindowOpening(window, at(WED, 7)), at(TUE + 7, 7));
  });

  it('only `from` means until midnight; only `to` means from midnight', () => {
    const fromOnly: DeliveryWindow = { days: ['MONDAY'], from: { hour: 18, minute: 0 } };
    assert.equal(nextWindowOpening(fromOnly, at(MON, 17)), at(MON, 18));
    assert.equal(nextWindowOpening(fromOnly, at(MON, 23, 59)), at(MON, 23, 59));
    const toOnly: DeliveryWindow = { days: ['MONDAY'], to: { hour: 6, minute: 0 } };
    assert.equal(nextWindowOpening(toOnly, at(MON, 5)), at(MON, 5));
    assert.equal(nextWindowOpening(toOnly, at(MON, 6)), at(NEXT_MON, 0));
  });

  it('day names are case-insensitive', () => {
    assert.equal(nextWindowOpening({ days: ['monday'] }, at(MON, 4)), at(MON, 4));
  });

  it('throws when no day is valid', () => {
    assert.throws(() => nextWindowOpening({ days: [] }, at(MON, 4)), RangeError);
    assert.throws(() => nextWindowOpening({ days: ['FUNDAY'] }, at(MON, 4)), RangeError);
  });

  it('every day, all day, is always open', () => {
    const always: DeliveryWindow = { days: [...WORKDAYS, 'SATURDAY', 'SUNDAY'] };
    for (let hour = 0; hour < 24 * 7; hour += 5) assert.ok(isWindowOpen(always, at(MON, 0) + hour * 3_600_000));
  });

  it('the result is always an opening instant inside the window', () => {
    for (let minute = 0; minute < 7 * 24 * 60; minute += 37) {
      const t = at(MON, 0) + minute * 60_000;
      const next = nextWindowOpening(nineToFive, t);
      assert.ok(next >= t);
      assert.ok(isWindowOpen(nineToFive, next));
      if (next > t) assert.equal(new Date(next).getUTCHours(), 9);
    }
  });
});
