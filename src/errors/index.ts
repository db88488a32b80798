/** Re-exports the error hierarchy: the base class and one subclass per domain. */
export * from './base.js';
