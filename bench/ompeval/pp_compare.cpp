// OMPEval, timed on this machine for pypoker's comparisons (README: "Against OMPEval").
//
// Ranks the same 7-card hands pypoker ranks (a file of card ids in pypoker's encoding, e.g.
// `pp.deal(16_000_000, 7, seed=1).tofile("hands7.bin")`) and runs bench_equity's spots, one
// thread each. OMPEval is not vendored: bring it, then build and run beside its sources:
//
//   git clone https://github.com/zekyll/OMPEval && cd OMPEval
//   # two fixes for GCC 12 (compile errors only): constexpr RNG bounds, <functional>
//   sed -i 's/static uint64_t min()/static constexpr uint64_t min()/; s/static uint64_t max()/static constexpr uint64_t max()/' omp/Random.h
//   g++ -O3 -std=c++11 -march=native -pthread -include functional \
//       -o pp_compare /path/to/pypoker/bench/ompeval/pp_compare.cpp omp/*.cpp -I.
//   ./pp_compare hands7.bin 2        # seconds a Monte Carlo run; 0: ranking only
//   ./pp_compare hands7.bin 2 random # only the spots whose name contains "random"
//   ./pp_compare hands7.bin 1 AA rate # ... and only their games/s (no stderr timing)
//   ./pp_compare accuracy 0.3 20 "random vs random"  # 20 independent runs of 0.3 s
//
// The accuracy mode (no hands file read) runs one Monte Carlo spot (the one of that name, else
// those whose name contains it) R times for t seconds each, one thread, every run a fresh
// EquityCalculator (seeded from std::random_device), and prints a line a run: equity[0] with 7
// decimals, games, OMPEval's own time and the wall time, and OMPEval's reported stderr of
// player 0. bench/bench_accuracy.py reads these lines to get the true spread of the estimate.
//
// For an AVX2 comparison on an AVX-512 machine build a second binary with -march=haswell and
// run pypoker with PYPOKER_CPU=avx2.
//
// OMPEval's Monte Carlo over ranges is a random walk (each game changes one player's hand), so
// its games are not independent; the "to stderr 0.0005" lines time its own stopping rule
// (player 0's batch-means error, checked every 0.05 s).
#include <functional>
#include "omp/HandEvaluator.h"
#include "omp/EquityCalculator.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <string>
using namespace std;
using clk = chrono::steady_clock;

static double median(vector<double> v) { sort(v.begin(), v.end()); return v[v.size() / 2]; }

struct Spot { const char* name; vector<string> ranges; const char* board; bool exact; };

static vector<Spot> all_spots() {
    return {
        {"AcKd vs QhQs", {"AcKd", "QhQs"}, "", false},
        {"random vs random", {"random", "random"}, "", false},
        // OMPEval has no "JJ-99" syntax: its parser stops at the '-' and reads "JJ-99,AQs+" as
        // JJ alone (6 combos, exact equity[0] 0.75079 against pypoker's 0.73116), so the
        // spot spells the 26 combos out.
        {"QQ+,AKs vs JJ-99,AQs+", {"QQ+,AKs", "JJ,TT,99,AQs+"}, "", false},
        {"AA vs 5 random", {"AA", "random", "random", "random", "random", "random"}, "", false},
        // (AA vs 9 random and 10 known hands: OMPEval takes at most 6 players.)
        {"22+,A2s+,K9s+ vs 22+,AJo+ vs 88+,AQ+ vs random", {"22+,A2s+,K9s+", "22+,AJo+", "88+,AQ+", "random"}, "", false},
        {"six 22+,A2+,K2+", {"22+,A2+,K2+", "22+,A2+,K2+", "22+,A2+,K2+", "22+,A2+,K2+", "22+,A2+,K2+", "22+,A2+,K2+"}, "", false},
        {"exact KK vs random vs random on 8c4d7cTsQs", {"KK", "random", "random"}, "8c4d7cTsQs", true},
        {"exact KK vs random vs random on 8c4d7c", {"KK", "random", "random"}, "8c4d7c", true},
        {"exact QQ+,AKs vs JJ-99,AQs+", {"QQ+,AKs", "JJ,TT,99,AQs+"}, "", true},
        {"exact AcKd vs QhQs", {"AcKd", "QhQs"}, "", true},
    };
}

// `accuracy <seconds> <runs> <spot>`: independent timed runs of one Monte Carlo spot (see the
// header). Each run builds its own calculator, so its random walk starts from a fresh seed.
static int accuracy(double seconds, int runs, const string& name) {
    vector<Spot> chosen;
    for (auto& s : all_spots()) if (!s.exact && name == s.name) chosen.push_back(s);
    if (chosen.empty())
        for (auto& s : all_spots()) if (!s.exact && string(s.name).find(name) != string::npos) chosen.push_back(s);
    if (chosen.empty() || seconds <= 0 || runs <= 0) {
        fprintf(stderr, "accuracy: no Monte Carlo spot matches \"%s\" (or seconds, runs <= 0)\n", name.c_str());
        return 2;
    }
    for (auto& s : chosen) {
        for (int r = 0; r < runs; r++) {
            omp::EquityCalculator calc;
            vector<omp::CardRange> ranges(s.ranges.begin(), s.ranges.end());
            calc.setTimeLimit(seconds);
            auto t = clk::now();
            calc.start(ranges, omp::CardRange::getCardMask(s.board), 0, false, 0.0, nullptr, 0.2, 1);
            calc.wait();
            double wall = chrono::duration<double>(clk::now() - t).count();
            auto res = calc.getResults();
            printf("accuracy\t%s\t%d\tequity0 %.7f\tgames %llu\ttime %.6f\twall %.6f\tstderr %.7f\n", s.name, r,
                   res.equity[0], (unsigned long long)res.hands, res.time, wall, res.stdev);
            fflush(stdout);
        }
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc > 1 && string(argv[1]) == "accuracy") {
        if (argc != 5) {
            fprintf(stderr, "usage: %s accuracy <seconds> <runs> <spot>\n", argv[0]);
            return 2;
        }
        return accuracy(atof(argv[2]), atoi(argv[3]), argv[4]);
    }
    // pypoker card id = suit * 13 + value; OMPEval's = 4 * value + suit.
    FILE* f = fopen(argv[1], "rb");
    vector<unsigned char> ids;
    { unsigned char buf[1 << 16]; size_t n; while ((n = fread(buf, 1, sizeof buf, f)) > 0) ids.insert(ids.end(), buf, buf + n); }
    fclose(f);
    size_t hands = ids.size() / 7;
    for (auto& c : ids) c = 4 * (c % 13) + c / 13;
    omp::HandEvaluator eval;
    vector<double> fly, pre;
    uint64_t check = 0;
    vector<omp::Hand> built(hands);
    for (size_t i = 0; i < hands; i++) {
        omp::Hand h = omp::Hand::empty();
        for (int j = 0; j < 7; j++) h += omp::Hand(ids[i * 7 + j]);
        built[i] = h;
    }
    for (int r = 0; r < 5; r++) {
        auto t = clk::now();
        for (size_t i = 0; i < hands; i++) {
            const unsigned char* c = &ids[i * 7];
            omp::Hand h = omp::Hand::empty() + c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
            check += eval.evaluate(h);
        }
        fly.push_back(chrono::duration<double>(clk::now() - t).count() / hands * 1e9);
        t = clk::now();
        for (size_t i = 0; i < hands; i++) check += eval.evaluate(built[i]);
        pre.push_back(chrono::duration<double>(clk::now() - t).count() / hands * 1e9);
    }
    printf("rank: %zu hands, ns/hand median of 5: from ids %.3f, prebuilt Hand %.3f (check %llu)\n",
           hands, median(fly), median(pre), (unsigned long long)check);
    if (argc > 2 && atof(argv[2]) == 0) return 0;  // ranking only
    vector<Spot> spots = all_spots();
    double seconds = argc > 2 ? atof(argv[2]) : 3.0;
    for (auto& s : spots) {
        if (argc > 3 && string(s.name).find(argv[3]) == string::npos) continue;  // one spot only
        vector<double> rates, times;
        double eq0 = 0;
        for (int r = 0; r < (s.exact ? 3 : 3); r++) {
            omp::EquityCalculator calc;
            vector<omp::CardRange> ranges(s.ranges.begin(), s.ranges.end());
            if (!s.exact) calc.setTimeLimit(seconds);
            auto t = clk::now();
            calc.start(ranges, omp::CardRange::getCardMask(s.board), 0, s.exact, 0.0, nullptr, 0.2, 1);
            calc.wait();
            double wall = chrono::duration<double>(clk::now() - t).count();
            auto res = calc.getResults();
            rates.push_back(res.hands / res.time / 1e6);
            times.push_back(wall);
            eq0 = res.equity[0];
        }
        if (s.exact) printf("%s: %.4f s wall (median of 3), equity[0] %.5f\n", s.name, median(times), eq0);
        else printf("%s: %.2f M games/s (median of 3 runs of %.0f s, one thread), equity[0] %.4f\n", s.name, median(rates), seconds, eq0);
        fflush(stdout);
        if (s.exact || argc > 4) continue;
        // Time to OMPEval's own standard error of player 0's equity <= 0.0005, one thread.
        vector<double> walls; double sd = 0; uint64_t games = 0;
        for (int r = 0; r < 3; r++) {
            omp::EquityCalculator calc;
            vector<omp::CardRange> ranges(s.ranges.begin(), s.ranges.end());
            calc.setTimeLimit(120);
            auto t = clk::now();
            calc.start(ranges, omp::CardRange::getCardMask(s.board), 0, false, 5e-4, nullptr, 0.05, 1);
            calc.wait();
            walls.push_back(chrono::duration<double>(clk::now() - t).count());
            auto res = calc.getResults(); sd = res.stdev; games = res.hands;
        }
        printf("  to stderr 0.0005: %.3f s wall (median of 3; last: %llu games, stderr %.5f)\n", median(walls), (unsigned long long)games, sd);
        fflush(stdout);
    }
}
