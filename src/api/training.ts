import { z } from "zod";
import { AvailableModel } from "./learning.js";
import { route } from "./route.js";

const KbParams = z.object({ kbid: z.string() });

/** The upstream TrainSetPartitions: the partitions a training set can be streamed from. */
export const TrainSetPartitions = z.object({ partitions: z.array(z.string()) });

export const trainsetPartitions = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/trainset",
  params: KbParams,
  response: TrainSetPartitions,
  role: "READER",
  summary: "Training set partitions: kbox keeps one index per knowledge box, so one partition named by its uuid",
});

export const generativeProviders = route({
  method: "GET",
  path: "/api/v1/kb/:kbid/generative_providers",
  params: KbParams,
  response: z.record(z.string(), z.array(AvailableModel)),
  role: "READER",
  summary: "Generative models this knowledge box can use, by provider (extractive, openai, predict, gguf)",
});
