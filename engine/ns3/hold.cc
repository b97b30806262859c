// hold.cc: events/s of one ns-3 event scheduler in the classic "hold" model.
//
// Mirrors BenchmarkHold in engine/bench_test.go:
//   - N events are pending all the time: every event handler schedules exactly
//     one new event at now + delay;
//   - delays are exponential with mean 1 us, in integer picoseconds
//     (int64(x * 1e6) + 1 ps, as in the Go code), taken from a precomputed
//     table of 65536 samples that is cycled, so the RNG costs nothing in the
//     timed loop (std::mt19937_64, fixed seed);
//   - N initial events, a warm-up of 10*N events, then M timed events
//     (std::chrono::steady_clock around Simulator::Run).
// The ns-3 side uses its cheapest scheduling path: Simulator::Schedule with a
// plain static function and no arguments; the handler counts events and calls
// Simulator::Stop() when the quota is used up.
//
// Usage: hold <scheduler> <pending> <events> [warmup]   (warmup defaults to 10*N)
//   scheduler: Map, Heap, List, Calendar, PriorityQueue (or ns3::XxxScheduler)
// Prints: ns3 scheduler=Heap pending=1000 events=... seconds=... events_per_s=...
//
// Build: g++ -O2 -std=c++17 hold.cc -o hold -lns3-core   (Debian: libns3-dev)

#include "ns3/core-module.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

static const size_t kTable = 65536; // power of two: index with a mask
static std::vector<Time> g_delay;  // precomputed delays
static size_t g_next = 0;          // next table index (cycles)
static uint64_t g_left = 0;        // events left before Stop

static void
Hold()
{
    Simulator::Schedule(g_delay[g_next++ & (kTable - 1)], &Hold);
    if (--g_left == 0)
    {
        Simulator::Stop();
    }
}

static void
RunEvents(uint64_t n)
{
    g_left = n;
    Simulator::Run();
    if (g_left != 0)
    {
        std::fprintf(stderr, "hold: run ended with %llu events left\n", (unsigned long long)g_left);
        std::exit(1);
    }
}

int
main(int argc, char* argv[])
{
    if (argc != 4 && argc != 5)
    {
        std::fprintf(stderr,
                     "usage: %s <Map|Heap|List|Calendar|PriorityQueue> <pending> <events> [warmup]\n",
                     argv[0]);
        return 2;
    }
    // Must come before any Time is made. ns-3 allows PS (int64 ps: ~106 days).
    Time::SetResolution(Time::PS);

    std::string name = argv[1];
    if (name.rfind("ns3::", 0) == 0)
    {
        name = name.substr(5);
    }
    if (name.size() > 9 && name.compare(name.size() - 9, 9, "Scheduler") == 0)
    {
        name.resize(name.size() - 9);
    }
    const uint64_t pending = std::strtoull(argv[2], nullptr, 10);
    const uint64_t events = std::strtoull(argv[3], nullptr, 10);
    const uint64_t warmup = argc == 5 ? std::strtoull(argv[4], nullptr, 10) : 10 * pending;
    if (pending == 0 || events == 0)
    {
        std::fprintf(stderr, "hold: pending and events must be > 0\n");
        return 2;
    }

    TypeId tid;
    if (!TypeId::LookupByNameFailSafe("ns3::" + name + "Scheduler", &tid))
    {
        std::fprintf(stderr, "hold: unknown scheduler %s\n", argv[1]);
        return 2;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    Simulator::SetScheduler(factory);

    std::mt19937_64 rng(1);
    std::exponential_distribution<double> exp(1.0);
    g_delay.reserve(kTable);
    for (size_t i = 0; i < kTable; i++)
    {
        g_delay.push_back(PicoSeconds(int64_t(exp(rng) * 1e6) + 1)); // mean 1 us
    }

    for (uint64_t i = 0; i < pending; i++)
    {
        Simulator::Schedule(g_delay[g_next++ & (kTable - 1)], &Hold);
    }
    if (warmup > 0)
    {
        RunEvents(warmup);
    }

    auto t0 = std::chrono::steady_clock::now();
    RunEvents(events);
    auto t1 = std::chrono::steady_clock::now();
    double sec = std::chrono::duration<double>(t1 - t0).count();

    std::printf("ns3 scheduler=%s pending=%llu events=%llu seconds=%.6f events_per_s=%.0f\n",
                name.c_str(), (unsigned long long)pending, (unsigned long long)events, sec,
                events / sec);
    std::fflush(stdout);
    // No Simulator::Destroy(): freeing the N pending events is not timed anyway.
    return 0;
}
