/**
 * Every bound of the static read, with its unit and what happens past it. A host may widen a
 * bound through the matching option; the defaults are the restrictive reading.
 */

/** Source files in one scope, at most. Past it the whole read is refused: `PALISADE_STATIC_ERR_TOO_MANY_FILES`. */
export const MAX_FILES = 5_000;

/** Bytes of one source file, at most. A larger file is not read; it is listed as `too-large`. */
export const MAX_FILE_BYTES = 1_048_576;

/** Characters of a callee or specifier quoted in a listing; longer text is cut and marked with `…`. */
export const MAX_DETAIL_CHARS = 120;
