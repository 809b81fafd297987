// Every public header compiles as C++ and links with C linkage.
#include <aplan/aplan.h>
#include <aplan/formats.h>
#include <aplan/csv.h>
#include <aplan/strategies.h>
#include <aplan/tflite.h>

int main() {
    aplan_problem p;
    aplan_problem_init(&p, nullptr, 0);
    return aplan_problem_validate(&p, nullptr) == APLAN_OK && aplan_strategy_count() > 0 ? 0 : 1;
}
