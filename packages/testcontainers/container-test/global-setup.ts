import { CLI, engine, IMAGE } from './engine.js';

/**
 * Fails the run at once, saying what to do, when the container engine or the image is missing:
 * the container tests never skip.
 */
export default async function setup(): Promise<void> {
  const image = await engine('image', 'inspect', IMAGE);
  if (image.code !== 0) {
    throw new Error(
      `The image ${IMAGE} is not there (${CLI} image inspect: ${image.stderr.trim()}). ` +
        'Build it with scripts/container/build-image.sh, or run scripts/container/test.sh, which builds it.',
    );
  }
  if (process.env.DOCKER_HOST === undefined) {
    throw new Error(
      'DOCKER_HOST is not set: start the Docker API first, e.g. eval "$(../shared/tools/container/service.sh start | grep ^export)"',
    );
  }
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
}
