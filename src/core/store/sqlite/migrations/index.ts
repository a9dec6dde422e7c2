import { initialMigration } from './001-initial.js';
import { pipelineIndexesMigration } from './002-pipeline-indexes.js';
import { groupedOutboxMigration } from './003-grouped-outbox.js';
import { reportsOnMessagesMigration } from './004-reports-on-messages.js';
import { phoneSmsOnMessagesMigration } from './005-phone-sms-on-messages.js';
import { outboxStreamsMigration } from './006-outbox-streams.js';
import { callsMigration } from './007-calls.js';
import { verifyMigration } from './008-verify.js';
import { messageChannelsMigration } from './009-message-channels.js';
import { consoleMigration } from './010-console.js';
import { nodeOwnershipMigration } from './011-node-ownership.js';
import { messagePartsMigration } from './012-message-parts.js';
import { inboundPartsMigration } from './013-inbound-parts.js';
import { partIdFirstMigration } from './014-part-id-first.js';
import type { Migration } from './migration.js';

/** Every migration, in version order. Append new ones; never edit one that has shipped. */
export const migrations: readonly Migration[] = [
  initialMigration,
  pipelineIndexesMigration,
  groupedOutboxMigration,
  reportsOnMessagesMigration,
  phoneSmsOnMessagesMigration,
  outboxStreamsMigration,
  callsMigration,
  verifyMigration,
  messageChannelsMigration,
  consoleMigration,
  nodeOwnershipMigration,
  messagePartsMigration,
  inboundPartsMigration,
  partIdFirstMigration,
];
