#!/usr/bin/python3
"""The Parley image from Python, as a team outside Node uses it (docs/containers.md).

Starts the image with the Docker SDK for Python (Debian's python3-docker, what testcontainers-python
is built on) through the Docker API in DOCKER_HOST, waits for /readyz, and talks to it with the
standard library's HTTP client only: creates a session, reads a streamed reply event by event as it
arrives, and fulfils a tool call (heartbeat, result, resume). Exits non-zero on the first failure.

    PARLEY_IMAGE=localhost/parley:dev /usr/bin/python3 scripts/container/python-client-test.py
"""
import http.client
import json
import os
import sys
import time
import urllib.request

import docker

IMAGE = os.environ.get("PARLEY_IMAGE", "localhost/parley:dev")
TOKEN = "python-ci-token"


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def request(port, method, path, body=None):
    """One buffered call: (status, parsed JSON body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"authorization": f"Bearer {TOKEN}"}
    data = None
    if body is not None:
        headers["content-type"] = "application/json"
        data = json.dumps(body)
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response.status, (json.loads(text) if text else None)


def stream_events(port, session_id, content):
    """POST .../stream and yield (event, reads so far) as each event's JSON is complete.

    The body is one JSON document written as it is produced: {"sessionId":...,"events":[{...},...]}.
    Each element of `events` is decoded as soon as its bytes are in, with json's raw_decode.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(
        "POST",
        f"/v1/messages/{session_id}/stream",
        body=json.dumps({"content": content}),
        headers={"authorization": f"Bearer {TOKEN}", "content-type": "application/json"},
    )
    response = conn.getresponse()
    check(response.status == 200, f"stream answered {response.status}")
    decoder = json.JSONDecoder()
    buffer, position, reads, in_events = "", 0, 0, False
    while True:
        chunk = response.read1(65536)
        if not chunk:
            break
        reads += 1
        buffer += chunk.decode()
        if not in_events:
            start = buffer.find('"events":[')
            if start < 0:
                continue
            position, in_events = start + len('"events":['), True
        while True:
            while position < len(buffer) and buffer[position] in " \n\r\t,":
                position += 1
            if position >= len(buffer) or buffer[position] == "]":
                break
            try:
                event, end = decoder.raw_decode(buffer, position)
            except json.JSONDecodeError:
                break  # the rest of this event is still on its way
            position = end
            yield event, reads
    conn.close()


def main():
    client = docker.from_env()
    container = client.containers.run(
        IMAGE,
        detach=True,
        ports={"4010/tcp": ("127.0.0.1", None)},
        environment={"PARLEY_USERS": f"python:{TOKEN}", "PARLEY_PACE": "ttft=0ms,tps=20"},
    )
    try:
        port = None
        for _ in range(100):
            container.reload()
            bindings = container.attrs["NetworkSettings"]["Ports"].get("4010/tcp")
            if bindings:
                port = int(bindings[0]["HostPort"])
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as ready:
                        if ready.status == 200:
                            break
                except OSError:
                    pass
            time.sleep(0.1)
        else:
            raise AssertionError(f"/readyz never answered 200; logs:\n{container.logs().decode()}")
        print(f"parley container {container.short_id} ready on port {port}")

        status, created = request(port, "POST", "/v1/sessions")
        check(status == 201, f"create session answered {status}")
        session_id = created["sessionId"]
        print(f"session {session_id}")

        # A streamed reply, read event by event as it arrives (20 words a second).
        words, first_read, last_read = [], None, 0
        for event, reads in stream_events(port, session_id, "one two three four five six seven eight"):
            delta = event.get("contentBlockDelta", {}).get("delta", {}).get("text")
            if delta is not None:
                first_read = reads if first_read is None else first_read
                last_read = reads
                words.append(delta)
                print(f"  read {reads}: {delta!r}")
        check(len(words) >= 8, f"expected the words one by one, got {words}")
        check(first_read < last_read, "every word came in one read: the stream was not incremental")

        # A tool call, fulfilled: the stand-in model calls get_weather; heartbeat, result, resume.
        status, reply = request(port, "POST", f"/v1/messages/{session_id}",
                                {"content": '/tool get_weather {"city":"Paris"}'})
        check(status == 200 and reply["stopReason"] == "tool_use", f"send answered {status} {reply}")
        call = reply["pendingTools"][0]
        check(call["name"] == "get_weather" and call["input"] == {"city": "Paris"}, f"pending tool {call}")
        base = f"/v1/tools/request/{session_id}/{call['requestId']}"
        status, _ = request(port, "POST", f"{base}/heartbeat", {"state": "PROCESSING", "heartbeat": 0})
        check(status == 200, f"heartbeat answered {status}")
        status, _ = request(port, "POST", f"/v1/tools/response/{session_id}/{call['requestId']}",
                            {"response": {"state": "COMPLETE", "tempC": 21}})
        check(status == 200, f"tool response answered {status}")
        status, resumed = request(port, "POST", f"/v1/messages/{session_id}", {})
        text = "".join(block.get("text", "") for message in resumed["messages"]
                       if message["role"] == "assistant" for block in message["content"])
        check(status == 200 and 'Tool get_weather returned {"tempC":21}.' in text, f"resume: {status} {text!r}")
        print(f"tool call fulfilled: {text!r}")
    finally:
        container.stop(timeout=1)
        container.reload()
        exit_code = container.attrs["State"]["ExitCode"]
        container.remove()
    check(exit_code == 0, f"the container exited {exit_code} on stop")
    print("python client test: ok (stopped with exit code 0)")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"python client test FAILED: {error}", file=sys.stderr)
        sys.exit(1)
