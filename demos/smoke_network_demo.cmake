# Runs network_demo the ways a user would and checks exit codes, messages and the SVG.
include(${CMAKE_CURRENT_LIST_DIR}/smoke_run.cmake)

file(REMOVE ${OUT}/n.svg)
run(0 "--network FILE" --help)
run(0 "wrote +${OUT}/n.svg" --network ${NETWORKS}/passing_loop.net --output ${OUT}/n.svg)
file(READ ${OUT}/n.svg svg)
if(NOT svg MATCHES "calcMode='discrete'" OR NOT svg MATCHES "</svg>")
  message(FATAL_ERROR "n.svg is not the animated network SVG")
endif()
# A file that is no network: the reader's error, at its line.
run(2 "oval.csv:[0-9]+: " --network ${TRACKS}/oval.csv)
# A network without the pieces the demo drives on.
file(WRITE ${OUT}/one_piece.net "piece main\n0, 0, 0\n1, 0, 0\n2, 0, 0\n3, 0, 0\n")
run(2 "one_piece.net has no piece named 'siding'" --network ${OUT}/one_piece.net)
run(2 "cannot read '${OUT}/missing.net'" --network ${OUT}/missing.net)
run(2 "unknown option --wagons" --wagons 3)
run(2 "option --output needs a value" --output)
