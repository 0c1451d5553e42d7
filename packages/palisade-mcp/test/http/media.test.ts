import { describe, expect, it } from 'vitest';
import { indexHeaders } from '../../src/http/headers/values.js';
import { acceptVerdict, COMMON_ACCEPT, readAccept } from '../../src/http/media.js';

describe('readAccept', () => {
  it('gives each common Accept value the verdict the full parse gives it', () => {
    for (const [value, verdict] of COMMON_ACCEPT) {
      expect(acceptVerdict([value])).toEqual(verdict);
      expect(readAccept(indexHeaders(['Accept', value]))).toEqual(verdict);
    }
  });

  it('parses a common value spelled in another case or repeated in full', () => {
    expect(readAccept(indexHeaders(['Accept', 'TEXT/Event-Stream;q=0, application/json']))).toEqual({
      json: true,
      eventStream: false,
    });
    expect(readAccept(indexHeaders(['Accept', 'application/json', 'Accept', 'text/event-stream']))).toEqual({
      json: true,
      eventStream: true,
    });
  });
});
