"""A small queue worker speaking RunPod's worker protocol with the standard library only (no runpod SDK).

Written from the protocol's facts (runpod-python 1.12.0: rp_job.py, rp_http.py, rp_scale.py, rp_ping.py,
rp_progress.py). The job input picks the behaviour:
  {"sleep_ms": N}          sleeps (stoppable), then echoes
  {"block_ms": N}          sleeps holding the worker's loop, as a sync handler does: stop signals wait for it
  {"raise": "message"}     raises: the error is posted as JSON text with error_type, error_message, error_traceback
  {"error": "message"}     returns {"error": ...}
  {"stream": [...]}        yields each item (posted to the stream URL), then the final post with isStream=true
  {"progress": [...]}      posts each item as {"status": "IN_PROGRESS", "output": item}, then completes
  {"exit": CODE}           the process exits while running the job
  {"env": "NAME"}          outputs {"env": value of NAME}
  {"refresh": true}        completes with stopPod: true (refresh_worker)
  anything else            outputs {"echo": input}
"""
import json
import os
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request

WORKER_ID = os.environ["RUNPOD_POD_ID"]
KEY = os.environ["RUNPOD_AI_API_KEY"]
TAKE_URL = os.environ["RUNPOD_WEBHOOK_GET_JOB"].replace("$ID", WORKER_ID)
STOP_URL = TAKE_URL.replace("/job-take/", "/job-stop/")
DONE_URL = os.environ["RUNPOD_WEBHOOK_POST_OUTPUT"].replace("$RUNPOD_POD_ID", WORKER_ID)
STREAM_URL = os.environ["RUNPOD_WEBHOOK_POST_STREAM"].replace("$RUNPOD_POD_ID", WORKER_ID)
PING_URL = os.environ["RUNPOD_WEBHOOK_PING"].replace("$RUNPOD_POD_ID", WORKER_ID)
PING_SECONDS = int(os.environ.get("RUNPOD_PING_INTERVAL", "10000")) / 1000

loop_lock = threading.Lock()  # held by a blocking handler, as a sync handler holds the SDK's event loop
current = {"id": None, "stop": threading.Event()}
# A stop can be read between the job's hand-over and run() taking it up: kept until then (a few ids at most).
early_stops = set()
stops_lock = threading.Lock()


def request(method, url, body=None, timeout=95):
    headers = {"Authorization": KEY}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/x-www-form-urlencoded"  # as runpod-python sends it
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            text = res.read().decode("utf-8")
            return res.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as err:
        return err.code, None


def post(url, job_id, body, is_stream=False):
    target = url.replace("$ID", job_id) + "&isStream=" + ("true" if is_stream else "false")
    return request("POST", target, body)


def sleep_stoppable(ms):
    deadline = time.time() + ms / 1000
    while time.time() < deadline:
        if current["stop"].wait(0.02):
            raise InterruptedError("stopped")


def handle(job):
    job_id, data = job["id"], job["input"]
    if "sleep_ms" in data:
        sleep_stoppable(data["sleep_ms"])
    if "block_ms" in data:
        with loop_lock:
            print(f"job {job_id} blocking", flush=True)  # the test cancels only once the loop is held
            time.sleep(data["block_ms"] / 1000)
    if "exit" in data:
        print("exiting mid-job", file=sys.stderr, flush=True)
        os._exit(int(data["exit"]))
    if "raise" in data:
        raise ValueError(data["raise"])
    if "error" in data:
        return {"error": data["error"]}, False
    if "stream" in data:
        for item in data["stream"]:
            post(STREAM_URL, job_id, {"output": item})
        return {"output": []}, True
    if "progress" in data:
        for item in data["progress"]:
            post(DONE_URL, job_id, {"status": "IN_PROGRESS", "output": item})
            sleep_stoppable(data.get("step_ms", 0))
        return {"output": {"done": True}}, False
    if "env" in data:
        return {"output": {"env": os.environ.get(data["env"])}}, False
    if data.get("refresh"):
        return {"output": {"refreshed": True}, "stopPod": True}, False
    return {"output": {"echo": data}}, False


def run(job):
    print(f"job {job['id']} started", flush=True)
    with stops_lock:
        current["id"], current["stop"] = job["id"], threading.Event()
        if job["id"] in early_stops:
            early_stops.discard(job["id"])
            current["stop"].set()
    try:
        result, is_stream = handle(job)
    except InterruptedError:
        print(f"job {job['id']} stopped", flush=True)
        return
    except Exception as err:  # the SDK's error shape: a JSON string
        result, is_stream = {"error": json.dumps({
            "error_type": str(type(err)), "error_message": str(err), "error_traceback": traceback.format_exc(),
            "hostname": os.environ.get("RUNPOD_POD_HOSTNAME", "unknown"), "worker_id": WORKER_ID,
        })}, False
    finally:
        current["id"] = None
    post(DONE_URL, job["id"], result, is_stream)
    print(f"job {job['id']} finished", flush=True)


def stop_loop():
    while True:
        status, body = request("GET", STOP_URL)
        with loop_lock:  # a blocked loop cannot read its stop signals
            if status == 200 and body:
                with stops_lock:
                    for job_id in body.get("jobsToStop", []):
                        if job_id == current["id"]:
                            current["stop"].set()
                        else:
                            if len(early_stops) >= 64:  # stops of jobs that had ended here already
                                early_stops.clear()
                            early_stops.add(job_id)
            elif status != 204:
                time.sleep(1)


def ping_loop():
    while True:
        request("GET", PING_URL + "&job_id=" + (current["id"] or "") + "&runpod_version=protocol-test", timeout=5)
        time.sleep(PING_SECONDS)


def main():
    threading.Thread(target=stop_loop, daemon=True).start()
    threading.Thread(target=ping_loop, daemon=True).start()
    print(f"worker {WORKER_ID} ready", flush=True)
    while True:
        status, job = request("GET", TAKE_URL + "&job_in_progress=0")
        if status == 200 and job:
            run(job)
        elif status == 429:
            time.sleep(5)
        elif status not in (204, 400):
            time.sleep(1)


if __name__ == "__main__":
    main()
