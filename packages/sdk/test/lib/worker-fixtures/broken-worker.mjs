// A worker module that fails while loading.
throw new Error('cannot load: missing configuration');
