CREATE TABLE `api_eval_results` (
	`id` text PRIMARY KEY NOT NULL,
	`eval_id` text NOT NULL,
	`method` text NOT NULL,
	`surface` text NOT NULL,
	`docs` text NOT NULL,
	`aids` text NOT NULL,
	`item` integer NOT NULL,
	`query` text NOT NULL,
	`answer` text,
	`correct` integer,
	`path_subsequence` integer,
	`path_set` integer,
	`calls` integer NOT NULL,
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
CREATE UNIQUE INDEX `api_eval_results_run` ON `api_eval_results` (`eval_id`,`method`,`surface`,`docs`,`aids`,`item`);--> statement-breakpoint
CREATE INDEX `api_eval_results_list` ON `api_eval_results` (`eval_id`,`id`);