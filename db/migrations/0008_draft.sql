CREATE TABLE `docset_revisions` (
	`docset_id` text NOT NULL,
	`tool_key` text NOT NULL,
	`version` integer NOT NULL,
	`iteration` integer NOT NULL,
	`doc` text NOT NULL,
	`bleu` real,
	`cos` real,
	`delta` real
);
--> statement-breakpoint
CREATE UNIQUE INDEX `docset_revisions_key` ON `docset_revisions` (`docset_id`,`tool_key`,`version`);--> statement-breakpoint
CREATE TABLE `docsets` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`parent_id` text,
	`docs_surface` text NOT NULL,
	`server_surface` text NOT NULL,
	`model` text NOT NULL,
	`simulated` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `docsets_server` ON `docsets` (`server_surface`,`created_at`);--> statement-breakpoint
CREATE TABLE `draft_run_tools` (
	`run_id` text NOT NULL,
	`tool_key` text NOT NULL,
	`status` text NOT NULL,
	`phase` text DEFAULT 'explore' NOT NULL,
	`iteration` integer DEFAULT 0 NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`tool_calls` integer DEFAULT 0 NOT NULL,
	`deltas` text NOT NULL,
	`stop` text,
	`result` text,
	`error` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `draft_run_tools_key` ON `draft_run_tools` (`run_id`,`tool_key`);--> statement-breakpoint
CREATE TABLE `draft_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`docs_surface` text NOT NULL,
	`server_surface` text NOT NULL,
	`parent_docset` text,
	`docset_id` text,
	`config` text NOT NULL,
	`trigger` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `draft_runs_trigger` ON `draft_runs` (`trigger`);--> statement-breakpoint
CREATE INDEX `draft_runs_created` ON `draft_runs` (`created_at`);--> statement-breakpoint
CREATE TABLE `draft_watches` (
	`id` text PRIMARY KEY NOT NULL,
	`docs_surface` text NOT NULL,
	`target` text NOT NULL,
	`config` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`fingerprint` text,
	`last_run` text,
	`last_docset` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
