export { PalisadeError, type PalisadeErrorCode } from './errors.js';
export * as limits from './limits.js';
