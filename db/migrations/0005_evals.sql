CREATE TABLE `eval_results` (
	`id` text PRIMARY KEY NOT NULL,
	`eval_id` text NOT NULL,
	`method` text NOT NULL,
	`surface` text NOT NULL,
	`task_id` text NOT NULL,
	`dataset` text NOT NULL,
	`difficulty` text NOT NULL,
	`question` text NOT NULL,
	`answer` text,
	`correct` integer NOT NULL,
	`ending` text NOT NULL,
	`error_class` text,
	`steps` integer NOT NULL,
	`model_calls` integer NOT NULL,
	`input_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`trajectory` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `eval_results_run` ON `eval_results` (`eval_id`,`method`,`surface`,`task_id`);--> statement-breakpoint
CREATE INDEX `eval_results_list` ON `eval_results` (`eval_id`,`id`);--> statement-breakpoint
CREATE TABLE `evals` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`status` text NOT NULL,
	`suite` text NOT NULL,
	`planned` text NOT NULL,
	`total` integer NOT NULL,
	`model` text NOT NULL,
	`schedule_id` text,
	`due_time` integer,
	`success_rate` real,
	`flagged` integer DEFAULT false NOT NULL,
	`comparison` text,
	`created_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evals_schedule_due` ON `evals` (`schedule_id`,`due_time`);--> statement-breakpoint
CREATE INDEX `evals_created` ON `evals` (`created_at`);--> statement-breakpoint
CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`cron` text NOT NULL,
	`suite` text NOT NULL,
	`threshold` real NOT NULL,
	`enabled` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
