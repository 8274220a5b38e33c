/** Job definitions as teams register them. */
import { type CronExpression, parseCron } from "../cron/mod.ts";
import { parseOffset } from "../time/mod.ts";

/** What a team registers: a cron expression in its own UTC offset. */
export interface JobDefinition {
  id: string;
  cron: string;
  /** "+05:30", "-08:00" or "Z"; defaults to "Z". */
  utcOffset?: string;
  /** Disabled jobs stay registered but never run. */
  enabled?: boolean;
}

/** A validated job, with its expression and offset parsed once. */
export interface Job {
  id: string;
  expression: CronExpression;
  offsetMinutes: number;
  offsetText: string;
  enabled: boolean;
}

/** Parses and validates a definition (throws CronSyntaxError or OffsetError). */
export function compileJob(def: JobDefinition): Job {
  const offsetText = def.utcOffset ?? "Z";
  return {
    id: def.id,
    expression: parseCron(def.cron),
    offsetMinutes: parseOffset(offsetText),
    offsetText,
    enabled: def.enabled ?? true,
  };
}
