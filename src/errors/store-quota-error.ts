import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** The browser refused to store more (storage quota). The transaction was rolled back: nothing was written. */
export class StoreQuotaError extends MoatError {
  static {
    registerErrorClass(StoreQuotaError, 'StoreQuotaError');
  }

  constructor(options: MoatErrorOptions = {}) {
    super({ ...options, message: options.message ?? 'The storage quota is exceeded: nothing was written' });
  }
}
