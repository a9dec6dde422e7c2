import type { Carrier, CarrierRouter } from './carrier.js';

/** Sends everything through one carrier: the sandbox when no network is configured. */
export class SingleCarrierRouter implements CarrierRouter {
  constructor(private readonly carrier: Carrier) {}

  carriers(): Carrier[] {
    return [this.carrier];
  }

  route(): Carrier {
    return this.carrier;
  }
}
