CREATE TABLE `explorations` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`trees_total` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trajectories` (
	`id` text PRIMARY KEY NOT NULL,
	`tree_id` text NOT NULL,
	`exploration_id` text NOT NULL,
	`task_id` text NOT NULL,
	`dataset` text NOT NULL,
	`leaf_node` integer NOT NULL,
	`reward` integer NOT NULL,
	`surface_id` text NOT NULL,
	`prompt_surface_id` text NOT NULL,
	`text` text NOT NULL,
	`steps` text NOT NULL,
	`tool_updates` text NOT NULL,
	`model` text NOT NULL,
	`seed` text NOT NULL,
	`selected` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trajectories_leaf` ON `trajectories` (`tree_id`,`leaf_node`);--> statement-breakpoint
CREATE INDEX `trajectories_exploration` ON `trajectories` (`exploration_id`,`task_id`);--> statement-breakpoint
CREATE TABLE `trees` (
	`id` text PRIMARY KEY NOT NULL,
	`exploration_id` text NOT NULL,
	`task_id` text NOT NULL,
	`tree_index` integer NOT NULL,
	`status` text NOT NULL,
	`seed` text NOT NULL,
	`nodes` integer DEFAULT 0 NOT NULL,
	`iterations` integer DEFAULT 0 NOT NULL,
	`model_calls` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`solved` integer,
	`summary` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trees_slot` ON `trees` (`exploration_id`,`task_id`,`tree_index`);--> statement-breakpoint
CREATE INDEX `trees_exploration` ON `trees` (`exploration_id`,`status`);