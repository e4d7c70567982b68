import { Schema } from 'effect';
import { Timestamp, requiredString, userId } from './common';

// Hepic (spec 001 §2 Hepic, §3 Hepic, §4 Hepic, §5 Hepic, §6, §7 Hepic, §8 toasts, §9): an instance's config, its
// statistics, its scoped tokens and its users with their groups. The enable body, the plans and the cloud resources
// are in contract/stack.ts (the show-config shapes the stack shares with qryn).

export const USER_ADDED_MESSAGE = 'User has been successfully added to HEPIC';
export const ROLE_UPDATED_MESSAGE = 'The role has been updated';
export const USER_DELETED_MESSAGE = 'User has been successfully deleted from HEPIC';
export const TOKEN_CREATED_MESSAGE = 'The new token has been created!';
export const KEY_ROTATED_MESSAGE = 'A new ingestion token has been created; the previous one no longer works.';
/** Under the show-once value (enable, rotation, a new scoped token): the console cannot show it again. */
export const SHOWN_ONCE_MESSAGE = 'Copy it now: it is shown only once. Later you will see only its first and last characters.';
/** The show-info item of enable that carries the instance's ingestion key (shown that once). */
export const HEPIC_KEY_ITEM_LABEL = 'Token (shown once)';
export const STATISTICS_UNAVAILABLE_MESSAGE = 'Statistics not currently available';
export const LAUNCH_DISABLED_MESSAGE = 'Please set hepic users at config tab to launch the app';
export const ALL_MEMBERS_ADDED_MESSAGE = 'All members of this project have already been added to hepic.';
export const AUTO_ADD_LABEL = 'Automatically add users in the current project to hepic.';
export const TOKEN_NAME_REQUIRED_MESSAGE = 'Please give the token a descriptive name.';
export const SELECT_MEMBER_MESSAGE = 'Please select a member.';
export const SELECT_GROUP_MESSAGE = 'Please select a role.';
export const CANNOT_REMOVE_SELF_MESSAGE = 'You cannot remove yourself from hepic.';
export const SUPERADMIN_LOCKED_MESSAGE = 'The superadmin role cannot be changed.';
export const ONLY_ADMINS_MESSAGE = 'Only hepic admins can add, remove or change the role of users.';
export const ORGANIZATION_MODE_MESSAGE = 'Adding users to hepic is only available in organization mode.';
export const configLoadErrorMessage = (projectId: number) =>
  `We had some issues loading the configuration of the Hepic integration for project ${projectId}`;
export const roleConfirmText = (name: string, role: string) => `You will change the role of ${name} to ${role}.`;
export const autoAddMessage = (enabled: boolean) => `Automatic adding of project members ${enabled ? 'enabled' : 'disabled'}`;
export const metricMessage = (enabled: boolean) => `Hepic metrics ${enabled ? 'enabled' : 'disabled'}`;

/** Groups a person can be given; superadmin exists (shown, locked) but is never assigned through the console. */
export const HEPIC_GROUPS = ['admin', 'user'] as const;
export const HepicGroup = Schema.Literals(HEPIC_GROUPS);
export type HepicGroup = typeof HepicGroup.Type;
export const HepicAnyGroup = Schema.Literals(['admin', 'user', 'superadmin']);
export type HepicAnyGroup = typeof HepicAnyGroup.Type;

/** Token TTL in days: default 1 (spec §9); bounds are this installation's choice (docs/hepic.md). */
export const TOKEN_TTL_DEFAULT_DAYS = 1;
export const TOKEN_TTL_MAX_DAYS = 365;
export const TOKEN_TTL_MESSAGE = `The TTL must be a whole number of days between 1 and ${TOKEN_TTL_MAX_DAYS}.`;
export const TOKEN_NAME_MAX = 64;

/** POST integrations/hepic/tokens {ttl_days, scope, name}: the scope is always read. */
export const CreateHepicTokenBody = Schema.Struct({
  name: requiredString(TOKEN_NAME_REQUIRED_MESSAGE).pipe(
    Schema.check(
      Schema.makeFilter((s: string) => s.trim().length > 0 || TOKEN_NAME_REQUIRED_MESSAGE),
      Schema.isMaxLength(TOKEN_NAME_MAX, { message: `The name can have at most ${TOKEN_NAME_MAX} characters.` }),
    ),
  ),
  scope: Schema.Literal('read'),
  ttl_days: Schema.Number.pipe(
    Schema.check(
      Schema.isInt({ message: TOKEN_TTL_MESSAGE }),
      Schema.isGreaterThanOrEqualTo(1, { message: TOKEN_TTL_MESSAGE }),
      Schema.isLessThanOrEqualTo(TOKEN_TTL_MAX_DAYS, { message: TOKEN_TTL_MESSAGE }),
    ),
  ).annotateKey({ messageMissingKey: TOKEN_TTL_MESSAGE }),
});
export type CreateHepicTokenBody = typeof CreateHepicTokenBody.Type;

/**
 * A scoped token (spec §3 Token). Only its hash is stored (docs/hepic.md, "Keys"): `token` is the plain token in
 * the creation answer only, null in every later read; `token_hint` (prefix…last four) is what the Auth page shows.
 */
export const HepicToken = Schema.Struct({
  id: Schema.Number,
  project_id: Schema.Number,
  token: Schema.NullOr(Schema.String),
  token_hint: Schema.String,
  name: Schema.String,
  integration_type: Schema.Literal('hepic'),
  status: Schema.Literals(['active', 'expired']),
  scope: Schema.String,
  creator_user_id: Schema.NullOr(Schema.String),
  cache_enabled: Schema.Boolean,
  created_at: Timestamp,
  expires: Timestamp,
});
export type HepicToken = typeof HepicToken.Type;
export const HepicTokenList = Schema.Array(HepicToken);
export const CreateHepicTokenResponse = Schema.Struct({ message: Schema.String, token: HepicToken });

/** POST integrations/hepic/key/rotate: the new ingestion key, shown this once; the old one is refused at once. */
export const RotateHepicKeyResponse = Schema.Struct({ message: Schema.String, api_key: Schema.String, api_key_hint: Schema.String });

/** GET integrations/hepic/config (spec §3 Config, plus the plan and where HEP is sent). */
export const HepicConfig = Schema.Struct({
  id: Schema.String,
  project_id: Schema.Number,
  clickhouse_cluster_id: Schema.String,
  /**
   * The hint of the instance's ingestion key (the 'Token' of Data Ingestion), null for read-only members. The key
   * itself is shown once, at enable and at rotation (POST integrations/hepic/key/rotate).
   */
  api_key_hint: Schema.NullOr(Schema.String),
  /** The 'HEP Endpoint': host:port, the same port over UDP and TCP. */
  ingress_url: Schema.String,
  /** The application URL (the hepic UI of the instance). */
  url: Schema.String,
  subdomain_prefix: Schema.String,
  hepic_metrics_enabled: Schema.Boolean,
  auto_add: Schema.Boolean,
  price_id: Schema.String,
  created_at: Timestamp,
});
export type HepicConfig = typeof HepicConfig.Type;

/** GET integrations/hepic/statistics: computed from what the instance's ClickHouse tables hold. */
export const HepicStatistics = Schema.Struct({
  /** null when neither a quota nor the storage's disk size is known. */
  storage_usage_percentage: Schema.NullOr(Schema.Number),
  storage_usage_bytes: Schema.Number,
  /** Bytes; null for a plan without a quota (the Overview then shows Stored and Usage percent). */
  storage_quota: Schema.NullOr(Schema.Number),
  /** Unix seconds of the oldest data still stored (data older than the plan's rotation is dropped); null when empty. */
  rotation_point_sec: Schema.NullOr(Schema.Number),
  /** Stored HEP packets (shown beside the bytes). */
  packets: Schema.Number,
  /**
   * Since the platform started: packets of this instance dropped because its queue was full (its storage slower
   * than its senders), packets the storage refused, and packets waiting to be written now (docs/hepic.md, Limits).
   */
  shed_packets: Schema.Number,
  failed_packets: Schema.Number,
  queued_packets: Schema.Number,
});
export type HepicStatistics = typeof HepicStatistics.Type;

/** A Hepic user (spec §3 User), with the name the Config list shows. */
export const HepicUser = Schema.Struct({
  user_id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  subdomain_prefix: Schema.String,
  group: HepicAnyGroup,
});
export type HepicUser = typeof HepicUser.Type;
export const HepicUserList = Schema.Array(HepicUser);

const UserGroupEntry = Schema.Struct({
  user_id: userId(SELECT_MEMBER_MESSAGE),
  group: HepicGroup.annotateKey({ messageMissingKey: SELECT_GROUP_MESSAGE }),
});

/** POST integrations/hepic/users {users: [{user_id, group}]} */
export const AddHepicUsersBody = Schema.Struct({
  users: Schema.Array(UserGroupEntry).pipe(Schema.check(Schema.isMinLength(1, { message: SELECT_MEMBER_MESSAGE }))),
});
export type AddHepicUsersBody = typeof AddHepicUsersBody.Type;

/** PATCH integrations/hepic/users/role: without has_confirmed the server answers the confirm prompt only. */
export const UpdateHepicRoleBody = Schema.Struct({
  users: Schema.Array(UserGroupEntry).pipe(Schema.check(Schema.isMinLength(1, { message: SELECT_MEMBER_MESSAGE }), Schema.isMaxLength(1, { message: 'One user at a time.' }))),
  has_confirmed: Schema.optional(Schema.Boolean),
});
export type UpdateHepicRoleBody = typeof UpdateHepicRoleBody.Type;

/** The answer of PATCH users/role: confirm (nothing changed yet) or the saved role. */
export const UpdateHepicRoleResponse = Schema.Struct({
  message: Schema.String,
  confirm: Schema.Boolean,
  user_id: Schema.String,
  group: HepicGroup,
});
export type UpdateHepicRoleResponse = typeof UpdateHepicRoleResponse.Type;

/** DELETE integrations/hepic/users?project_id&user_id */
export const RemoveHepicUserQuery = Schema.Struct({ user_id: userId(SELECT_MEMBER_MESSAGE) });

/** POST auto-add and PATCH metric */
export const HepicToggleBody = Schema.Struct({ enabled: Schema.Boolean });
export const HepicToggleResponse = Schema.Struct({ message: Schema.String, enabled: Schema.Boolean });

/** Members of the project that can still be added (the add form's select). */
export const HepicCandidate = Schema.Struct({ user_id: Schema.String, email: Schema.String, name: Schema.String });
export const HepicCandidateList = Schema.Array(HepicCandidate);

/** The Data Ingestion pages: agents named {group}--{method}; heplify is the default. */
export const HEPIC_AGENTS = ['heplify', 'hepagent', 'hepgen'] as const;
export type HepicAgent = (typeof HEPIC_AGENTS)[number];
