/**
 * `createServer` turns a host's definition into a checked, frozen server value that every
 * transport serves. All validation happens here, once: an unknown option, a duplicate name, a
 * schema that does not compile or a template Palisade cannot match strictly throws now, naming it.
 */
import { buildCatalog } from './catalog/catalog.js';
import type { CacheHint, LogLevel, ServerDefinition } from './catalog/types.js';
import { invalidOption, PalisadeError } from './errors.js';
import {
  DEFAULT_LISTEN_LIFETIME_MS,
  DEFAULT_PAGE_SIZE,
  MAX_LISTEN_LIFETIME_MS,
  MAX_PAGE_SIZE,
} from './limits.js';
import {
  isPlainObject,
  optionalString,
  refuseUnknownKeys,
  requireArray,
  requireFunction,
  requireInteger,
  requireObject,
  requireString,
} from './options.js';
import type { ChangeBus } from './protocol/change-bus.js';
import { ChangeHub, type ChangeKind, type DeclaredChanges } from './protocol/change-hub.js';
import { isLogLevel, LOG_LEVELS } from './protocol/handler-context.js';
import { requestStateConfig } from './protocol/request-state.js';
import { CACHE_KEYS, type Server, type ServerInfo } from './protocol/server-shape.js';
import { tasksConfig } from './protocol/tasks/config.js';
import { ALL_REVISIONS, isRevision, type Revision } from './revisions.js';

export type { Server, ServerInfo } from './protocol/server-shape.js';

/** What a server declares, by name: each list in the order `tools/list` and its siblings give it. */
export interface CatalogNames {
  readonly tools: readonly string[];
  /** The URIs of the fixed resources. */
  readonly resources: readonly string[];
  /** The URI templates, as declared. */
  readonly resourceTemplates: readonly string[];
  readonly prompts: readonly string[];
}

const SERVER_KEYS = [
  'name',
  'version',
  'title',
  'instructions',
  'tools',
  'resources',
  'resourceTemplates',
  'prompts',
  'supportedVersions',
  'pageSize',
  'cache',
  'requestState',
  'tasks',
  'notifications',
  'defaultLogLevel',
  'traceContext',
] as const;

const NOTIFICATION_KEYS = [
  'toolsListChanged',
  'promptsListChanged',
  'resourcesListChanged',
  'resourceSubscriptions',
  'listenLifetimeMs',
  'bus',
] as const;

function optionalBoolean(value: unknown, path: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalidOption(path, 'must be a boolean');
  return value;
}

/** A shared bus is the host's object: it needs the two methods the hub calls, checked once here. */
function changeBus(value: unknown): ChangeBus | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw invalidOption('notifications.bus', 'must be an object with publish and subscribe functions');
  for (const method of ['publish', 'subscribe'])
    requireFunction((value as Record<string, unknown>)[method], `notifications.bus.${method}`);
  return value as ChangeBus;
}

/** What change notifications the host announces: none unless it says so, each a kind it can name. */
function declaredChanges(source: Record<string, unknown>): DeclaredChanges {
  return Object.freeze({
    toolsListChanged: optionalBoolean(source['toolsListChanged'], 'notifications.toolsListChanged'),
    promptsListChanged: optionalBoolean(source['promptsListChanged'], 'notifications.promptsListChanged'),
    resourcesListChanged: optionalBoolean(
      source['resourcesListChanged'],
      'notifications.resourcesListChanged',
    ),
    resourceSubscriptions: optionalBoolean(
      source['resourceSubscriptions'],
      'notifications.resourceSubscriptions',
    ),
    listenLifetimeMs:
      source['listenLifetimeMs'] === undefined
        ? DEFAULT_LISTEN_LIFETIME_MS
        : requireInteger(
            source['listenLifetimeMs'],
            'notifications.listenLifetimeMs',
            1,
            MAX_LISTEN_LIFETIME_MS,
          ),
  });
}

/** Baggage is the caller's arbitrary key-values: it reaches the host only when asked for. */
function traceContextOptions(value: unknown): { readonly baggage: boolean } {
  const source = value === undefined ? {} : requireObject(value, 'traceContext');
  refuseUnknownKeys(source, ['baggage'], 'traceContext');
  return Object.freeze({ baggage: optionalBoolean(source['baggage'], 'traceContext.baggage') });
}

function defaultLogLevel(value: unknown): LogLevel | undefined {
  if (value === undefined) return 'info';
  if (value === 'off') return undefined;
  if (!isLogLevel(value))
    throw invalidOption('defaultLogLevel', `must be "off" or one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

const LIST_CHANGES: ReadonlyMap<unknown, ChangeKind> = new Map<unknown, ChangeKind>([
  ['tools', 'toolsListChanged'],
  ['prompts', 'promptsListChanged'],
  ['resources', 'resourcesListChanged'],
]);

/** Stale at once and never shared: a default that cannot leak one caller's list to another. */
const DEFAULT_CACHE_HINT: CacheHint = Object.freeze({ ttlMs: 0, scope: 'private' });

function cacheHint(value: unknown, path: string): CacheHint {
  if (value === undefined) return DEFAULT_CACHE_HINT;
  const hint = requireObject(value, path);
  refuseUnknownKeys(hint, ['ttlMs', 'scope'], path);
  const ttlMs = requireInteger(hint['ttlMs'], `${path}.ttlMs`, 0, Number.MAX_SAFE_INTEGER);
  if (hint['scope'] !== 'public' && hint['scope'] !== 'private')
    throw invalidOption(`${path}.scope`, 'must be "public" or "private"');
  return Object.freeze({ ttlMs, scope: hint['scope'] });
}

function supportedVersions(value: unknown): readonly Revision[] {
  if (value === undefined) return ALL_REVISIONS;
  const list = requireArray(value, 'supportedVersions');
  if (list.length === 0) throw invalidOption('supportedVersions', 'must name at least one revision');
  const seen = new Set<Revision>();
  for (const entry of list) {
    if (!isRevision(entry))
      throw invalidOption('supportedVersions', `may hold only ${ALL_REVISIONS.join(', ')}`);
    if (seen.has(entry)) throw invalidOption('supportedVersions', 'names a revision twice');
    seen.add(entry);
  }
  // Advertised newest first whatever order the host wrote.
  return Object.freeze(ALL_REVISIONS.filter((revision) => seen.has(revision)));
}

export function createServer(definition: ServerDefinition): Server {
  const source = requireObject(definition, 'server');
  refuseUnknownKeys(source, SERVER_KEYS, '');
  const name = requireString(source['name'], 'name');
  const version = requireString(source['version'], 'version');
  const title = optionalString(source['title'], 'title');
  const instructions = optionalString(source['instructions'], 'instructions');
  const pageSize =
    source['pageSize'] === undefined
      ? DEFAULT_PAGE_SIZE
      : requireInteger(source['pageSize'], 'pageSize', 1, MAX_PAGE_SIZE);
  const cacheSource = source['cache'] === undefined ? {} : requireObject(source['cache'], 'cache');
  refuseUnknownKeys(cacheSource, CACHE_KEYS, 'cache');
  const cache = Object.freeze({
    discover: cacheHint(cacheSource['discover'], 'cache.discover'),
    tools: cacheHint(cacheSource['tools'], 'cache.tools'),
    resources: cacheHint(cacheSource['resources'], 'cache.resources'),
    prompts: cacheHint(cacheSource['prompts'], 'cache.prompts'),
  });
  const info: ServerInfo = Object.freeze(title === undefined ? { name, version } : { name, version, title });
  const catalog = buildCatalog(definition);
  const notifications =
    source['notifications'] === undefined ? {} : requireObject(source['notifications'], 'notifications');
  refuseUnknownKeys(notifications, NOTIFICATION_KEYS, 'notifications');
  const changes = new ChangeHub(declaredChanges(notifications), changeBus(notifications['bus']));
  if (changes.declared.resourceSubscriptions && catalog.resources === undefined)
    throw invalidOption(
      'notifications.resourceSubscriptions',
      'needs resources or resource templates to watch',
    );
  const tasks = tasksConfig(source['tasks']);
  if (tasks === undefined && catalog.tools !== undefined)
    for (const tool of catalog.tools.values())
      if (tool.taskSupport !== 'forbidden')
        throw invalidOption(
          `tool ${JSON.stringify(tool.definition.name)} execution.taskSupport`,
          'needs tasks.store: a task is held by the host, never by Palisade',
        );
  return Object.freeze({
    info,
    instructions,
    supportedVersions: supportedVersions(source['supportedVersions']),
    pageSize,
    cache,
    catalog,
    requestState: requestStateConfig(source['requestState']),
    tasks,
    changes,
    defaultLogLevel: defaultLogLevel(source['defaultLogLevel']),
    traceContext: traceContextOptions(source['traceContext']),
    notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
      const change = LIST_CHANGES.get(kind);
      if (change === undefined)
        throw new PalisadeError(
          'PALISADE_ERR_INVALID_ARGUMENT',
          'notifyListChanged takes "tools", "prompts" or "resources"',
        );
      // A bad call throws here and now; only the sending is a promise.
      return Promise.resolve(changes.publish({ kind: change }));
    },
    notifyResourceUpdated(uri: string): Promise<void> {
      return Promise.resolve(changes.publish({ kind: 'resourceUpdated', uri }));
    },
  });
}

/**
 * The names `server` declares: its tools, resources, resource templates and prompts. What a tool
 * outside the server reads of a catalog (the connectome builds its declared graph from it), never
 * the handlers or the compiled schemas. Frozen. A value `createServer` did not return is refused,
 * `PALISADE_ERR_INVALID_ARGUMENT`.
 */
export function catalogNames(server: Server): CatalogNames {
  const catalog: unknown = isPlainObject(server) ? server['catalog'] : undefined;
  const lists = ['toolList', 'resourceList', 'templateList', 'promptList'];
  if (
    !isPlainObject(catalog) ||
    !lists.every((list) => Array.isArray(catalog[list])) ||
    !isPlainObject(server.info)
  ) {
    throw new PalisadeError(
      'PALISADE_ERR_INVALID_ARGUMENT',
      'catalogNames needs a server createServer returned',
    );
  }
  const { toolList, resourceList, templateList, promptList } = server.catalog;
  return Object.freeze({
    tools: Object.freeze(toolList.map((tool) => tool.definition.name)),
    resources: Object.freeze(resourceList.map((resource) => resource.definition.uri)),
    resourceTemplates: Object.freeze(templateList.map((template) => template.definition.uriTemplate)),
    prompts: Object.freeze(promptList.map((prompt) => prompt.definition.name)),
  });
}
