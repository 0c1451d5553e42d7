/**
 * The `palisade-demo` package's entry: one function that serves the demo catalog. `palisade demo`
 * (in palisade-mcp) loads it on demand, since the server package holds no catalog.
 *
 * Nothing exported here may mention a palisade-mcp type: palisade-mcp's own build resolves this
 * entry's declarations (its `import('palisade-demo')`), and a declaration importing palisade-mcp
 * back would pull that package's outputs into its own program (TS5055).
 */
export {
  DemoOptionError,
  type DemoOptions,
  type HttpDemo,
  type RunningDemo,
  type StdioDemo,
  startDemo,
} from './start.js';
