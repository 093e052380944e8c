CREATE TABLE `ste_exemplars` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`surface_id` text NOT NULL,
	`surface_version` text NOT NULL,
	`tool` text NOT NULL,
	`query` text NOT NULL,
	`action` text NOT NULL,
	`action_input` text NOT NULL,
	`observation` text NOT NULL,
	`final_answer` text NOT NULL,
	`paraphrase_of` text,
	`episode` integer NOT NULL,
	`trial` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ste_exemplars_surface` ON `ste_exemplars` (`surface_id`,`tool`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `ste_exemplars_run` ON `ste_exemplars` (`run_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `ste_memory` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`surface_id` text NOT NULL,
	`surface_version` text NOT NULL,
	`tool` text NOT NULL,
	`position` integer NOT NULL,
	`query` text NOT NULL,
	`solved` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ste_memory_run` ON `ste_memory` (`run_id`,`tool`,`position`);--> statement-breakpoint
CREATE TABLE `ste_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`surface_id` text NOT NULL,
	`surface_version` text NOT NULL,
	`docs_surface_id` text NOT NULL,
	`since_surface_id` text,
	`config` text NOT NULL,
	`tools_total` integer NOT NULL,
	`trigger` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ste_runs_trigger` ON `ste_runs` (`trigger`);--> statement-breakpoint
CREATE INDEX `ste_runs_created` ON `ste_runs` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `ste_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`schedule` text NOT NULL,
	`run` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ste_tools` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`tool` text NOT NULL,
	`status` text NOT NULL,
	`phase` text DEFAULT 'query' NOT NULL,
	`trials_done` integer DEFAULT 0 NOT NULL,
	`trials_total` integer NOT NULL,
	`solved` integer DEFAULT 0 NOT NULL,
	`kept` integer DEFAULT 0 NOT NULL,
	`dropped` integer DEFAULT 0 NOT NULL,
	`exemplars` integer DEFAULT 0 NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`error` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ste_tools_run` ON `ste_tools` (`run_id`,`status`);--> statement-breakpoint
CREATE TABLE `ste_trials` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`surface_id` text NOT NULL,
	`surface_version` text NOT NULL,
	`tool` text NOT NULL,
	`episode` integer NOT NULL,
	`trial` integer NOT NULL,
	`query` text NOT NULL,
	`steps` text NOT NULL,
	`final_answer` text,
	`reflection` text NOT NULL,
	`solved` integer NOT NULL,
	`verdict` text
);
--> statement-breakpoint
CREATE INDEX `ste_trials_run` ON `ste_trials` (`run_id`,`tool`,`episode`,`trial`);